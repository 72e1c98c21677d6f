import { useEffect, useId, useMemo, useReducer, useState } from "react";
import { stripMarks } from "../../db/domain/plain-text";

type Render = (md: string, top?: number) => string;
let render: Render | undefined;
let loading: Promise<void> | undefined;

/** The server renders text formatted from the first byte (entry.server registers the renderer). */
export const setTextRenderer = (r: Render) => {
  render = r;
};

/** The browser loads the renderer (the editor's parser) in a chunk of its own, once idle after hydration. */
export const loadTextRenderer = () =>
  (loading ??= new Promise<unknown>((idle) =>
    "requestIdleCallback" in window ? requestIdleCallback(idle, { timeout: 1000 }) : setTimeout(idle, 200),
  )
    .then(() => import("../../db/domain/render-text"))
    .then((m) => {
      render = m.markdownToHtml;
    }));

/**
 * Stored Markdown shown formatted, never as Markdown. Hydration keeps the server's HTML as it is (the parser is
 * not in the page's first JavaScript); text that arrives before the renderer is loaded shows without its marks.
 */
type Props = {
  text: string;
  className?: string;
  id?: string;
  /** The HTML level of the text's first-level headings: one below the heading the text sits under. */
  headingLevel?: number;
};

export function FormattedText({ text, className = "", id, headingLevel }: Props) {
  const autoId = useId();
  const ownId = id ?? autoId;
  const [ready, loaded] = useReducer(() => true, Boolean(render));
  const [first] = useState(() => ({ text, html: render ? undefined : globalThis.document?.getElementById(ownId)?.innerHTML }));
  useEffect(() => {
    if (!ready) void loadTextRenderer().then(loaded);
  }, [ready]);
  const html = useMemo(
    () => (ready && render ? render(text, headingLevel) : first.text === text ? first.html : undefined),
    [text, ready, first, headingLevel],
  );
  return html === undefined ? (
    <div id={ownId} className={`formatted-text whitespace-pre-wrap ${className}`}>
      {stripMarks(text)}
    </div>
  ) : (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: the renderer escapes every text (or it is the server's own HTML)
    <div id={ownId} className={`formatted-text ${className}`} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
