import { createContext } from "react";

// production pages carry the app's stylesheet inline in <head> (about 9 KB gzip), so the first paint
// needs nothing but the HTML: a stylesheet link was requested behind the route's module preloads and held the
// first paint on a phone's connection. Dev keeps a plain <link> so Tailwind's hot reload works.

type Html = { __html: string };

/** The CSS text; entry.server provides it. */
export const InlineCss = createContext<Html | null>(null);

/**
 * On the client, the CSS the server sent, read once before hydration. The <style> keeps exactly this object on
 * every render, so React never rewrites it, and a client re-render from scratch still has the styles.
 */
export const keptCss: Html = {
  __html: typeof document === "undefined" ? "" : (document.getElementById("sw-css")?.textContent ?? ""),
};
