import { type ComponentType, Suspense, lazy } from "react";
import { plainTextHtml } from "../../db/domain/plain-html";
import type { FormattedTextProps } from "./formatted-text";

let server: ComponentType<FormattedTextProps> | undefined;
/** The server renders the text formatted in place (entry.server registers the renderer). */
export const setServerFormattedText = (component: ComponentType<FormattedTextProps>) => {
  server = component;
};

// In the browser the renderer (the editor's parser) loads once the page is hydrated: until then hydration leaves
// the server's HTML as it is, and text that arrives meanwhile shows without its marks.
const Loaded = lazy(() => new Promise((r) => setTimeout(r, 300)).then(() => import("./formatted-text")));

/** Stored Markdown shown formatted, never as Markdown, without the parser in the page's first JavaScript. */
export function LazyFormattedText(props: FormattedTextProps) {
  // Plain prose needs no parser: its paragraphs at once, the same HTML the renderer gives.
  const plain = plainTextHtml(props.text);
  if (plain !== null) {
    // biome-ignore lint/security/noDangerouslySetInnerHtml: every text escaped (plain-html.ts)
    return <div id={props.id} className={`formatted-text ${props.className ?? ""}`} dangerouslySetInnerHTML={{ __html: plain }} />;
  }
  const Formatted = server ?? Loaded;
  return (
    <Suspense
      fallback={
        <div id={props.id} className={`whitespace-pre-wrap ${props.className}`}>
          {props.text.replace(/[\\*_~`#>]/g, "")}
        </div>
      }
    >
      <Formatted {...props} />
    </Suspense>
  );
}
