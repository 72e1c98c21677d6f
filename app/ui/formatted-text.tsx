import { useEffect, useId, useReducer, useState } from "react";
import { stripMarks } from "../../db/domain/plain-text";

type Render = (md: string) => string;
let render: Render | undefined;
let loading: Promise<unknown> | undefined;

/** The server renders text formatted from the first byte (entry.server registers the renderer). */
export const setTextRenderer = (r: Render) => {
  render = r;
};

/** The browser loads the renderer (the editor's parser) in a chunk of its own, after hydration. */
export const loadTextRenderer = () =>
  (loading ??= import("../../db/domain/render-text").then((m) => {
    render = m.markdownToHtml;
  }));

/**
 * Stored Markdown shown formatted, never as Markdown. Hydration keeps the server's HTML as it is (the parser is
 * not in the page's first JavaScript); text that arrives before the renderer is loaded shows without its marks.
 */
export function FormattedText({ text, className, id }: { text: string; className?: string; id?: string }) {
  const ownId = useId();
  const [, loaded] = useReducer((n: number) => n + 1, 0);
  const [hydrated] = useState(() => ({
    text,
    html: render || typeof document === "undefined" ? undefined : document.getElementById(id ?? ownId)?.innerHTML,
  }));
  useEffect(() => {
    if (!render) void loadTextRenderer().then(loaded);
  }, []);
  const html = render ? render(text) : hydrated.text === text ? hydrated.html : undefined;
  return html === undefined ? (
    <div id={id ?? ownId} className={`formatted-text whitespace-pre-wrap ${className ?? ""}`}>
      {stripMarks(text)}
    </div>
  ) : (
    <div id={id ?? ownId} className={`formatted-text ${className ?? ""}`} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
