import FormattedText from "~/ui/formatted-text";

/**
 * What the model wrote (Markdown, like the stored text) shown formatted by the shared renderer: paragraphs,
 * lists, headings, quotes, bold and italic, every text escaped. Loaded with the first answer, not with the page.
 */
export default function AiText({ text }: { text: string }) {
  return <FormattedText text={text} headingLevel={3} className="text-sm leading-relaxed text-stone-800" />;
}
