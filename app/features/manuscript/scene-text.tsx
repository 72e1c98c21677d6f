/** A scene's text as rendered HTML (db/domain/render-text.ts escapes every text), in the manuscript's measure. */
export const SCENE_TEXT_CLASS = "ms-text formatted-text font-serif text-[1.2rem] leading-[1.7] text-ink";

export function SceneText({ html }: { html: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the renderer escapes every text
  return <div className={SCENE_TEXT_CLASS} dangerouslySetInnerHTML={{ __html: html }} />;
}
