import { FormattedText } from "~/ui/formatted-text";

/**
 * What the model wrote (Markdown, like the stored text) shown formatted by the shared renderer: paragraphs,
 * lists, headings, quotes, bold and italic, every text escaped.
 */
export function AiText({ text }: { text: string }) {
  return <FormattedText text={text} headingLevel={3} className="text-sm leading-relaxed text-stone-800" />;
}
