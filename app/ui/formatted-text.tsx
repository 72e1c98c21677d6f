import { markdownToHtml } from "../../db/domain/render-text";

export type FormattedTextProps = {
  text: string;
  className?: string;
  id?: string;
  /** The HTML level of the text's first-level headings: one below the heading the text sits under (a card's h3). */
  headingLevel?: number;
};

/**
 * Stored Markdown shown formatted, never as Markdown: the shared renderer's HTML, every text escaped. It brings
 * the editor's parser along; a page's first JavaScript uses LazyFormattedText instead.
 */
export default function FormattedText({ text, className = "", id, headingLevel = 4 }: FormattedTextProps) {
  const html = markdownToHtml(text, headingLevel);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the renderer escapes every text
  return <div id={id} className={`formatted-text ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
