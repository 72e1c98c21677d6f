import { createElement as h } from "react";
import { renderToReadableStream } from "react-dom/server";
import { createStaticHandler, type EntryContext, Links, Meta, Outlet, Scripts, ServerRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { startScriptsAfterFirstPaint } from "../../app/lib/after-first-paint";

const page = [
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>T</title>',
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="N1"/>',
  '<link rel="modulepreload" href="/assets/root-B.js" nonce="N1"/>',
  '<style id="sw-css">body{color:red}</style></head><body><main><p>Scene 1: the tide turns.</p></main>',
  '<script nonce="N1">window.__reactRouterContext = {};</script>',
  '<script nonce="N1" type="module" async="">import * as route0 from "/assets/root-B.js";\nimport("/assets/entry.client-A.js");</script>',
  '<p>after: type="module" async="" stays as text once the script is found</p></body></html>',
].join("");

/** The page through the transform, sent in chunks cut at `cuts` (byte offsets), read back as text. */
async function through(html: string, cuts: number[], nonce?: string) {
  const bytes = new TextEncoder().encode(html);
  const edges = [0, ...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 1; i < edges.length; i++) controller.enqueue(bytes.slice(edges[i - 1], edges[i]));
      controller.close();
    },
  });
  return await new Response(startScriptsAfterFirstPaint(body, nonce)).text();
}

describe("production pages start their scripts after the first paint (app/lib/after-first-paint.ts)", () => {
  it("sends the module preloads and React Router's module script inert, with the nonce'd script that wakes them", async () => {
    const out = await through(page, [], "N1");
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out.match(/<link rel="sw-modulepreload" href="[^"]+"/g)).toEqual([
      '<link rel="sw-modulepreload" href="/assets/entry.client-A.js"',
      '<link rel="sw-modulepreload" href="/assets/root-B.js"',
    ]);
    expect(out).toContain('<script nonce="N1" type="sw-module" async="">import * as route0');
    // The waking script is the head's last element, so it is there before anything in the body.
    expect(out).toMatch(/<script nonce="N1">\(function\(\)\{var d=document[^<]*<\/script><\/head>/);
    // Only the first module script is React Router's: text later in the page is left alone.
    expect(out).toContain('<p>after: type="module" async="" stays as text');
    // Nothing else changed.
    const expected = page
      .replaceAll('<link rel="modulepreload"', '<link rel="sw-modulepreload"')
      .replace(' type="module" async=""', ' type="sw-module" async=""');
    expect(out.replace(/<script nonce="N1">\(function[^<]*<\/script>/, "")).toBe(expected);
  });

  it("gives the same page however the stream is cut, a marker split across chunks included", async () => {
    const whole = await through(page, [], "N1");
    const markers = [page.indexOf("</head>"), page.indexOf(' type="module"'), page.indexOf('<link rel="modulepreload"')];
    for (const at of markers) {
      for (let d = -3; d <= 25; d++) expect(await through(page, [at + d], "N1")).toBe(whole);
    }
    // Tiny chunks all the way through.
    expect(
      await through(
        page,
        Array.from({ length: page.length }, (_, i) => i * 7),
      ),
    ).toBe(await through(page, []));
  });

  it("leaves a page without a head or a module script as it was, and leaves out the nonce when there is none", async () => {
    expect(await through("<p>plain</p>", [3])).toBe("<p>plain</p>");
    const out = await through("<html><head></head><body>x</body></html>", [8]);
    expect(out).toMatch(/^<html><head><script>\(function\(\)\{[^<]*<\/script><\/head><body>x<\/body><\/html>$/);
  });

  it("finds its markers in the page React Router and React really render (an upgrade that changes them fails here)", async () => {
    const raw = await new Response(await renderRealPage("N1")).text();
    // What the transform looks for, as React Router's <Scripts> and React write it today.
    const preloads = raw.match(/<link rel="modulepreload" href="[^"]+"/g) ?? [];
    expect(preloads.length).toBeGreaterThanOrEqual(4);
    expect(raw.indexOf('<link rel="modulepreload"')).toBeLessThan(raw.indexOf("</head>"));
    expect(raw.match(/<script nonce="N1" type="module" async="">/g)).toHaveLength(1);

    const out = await new Response(startScriptsAfterFirstPaint(await renderRealPage("N1"), "N1")).text();
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).not.toMatch(/<script[^>]* type="module"/);
    expect(out.match(/<link rel="sw-modulepreload" href="[^"]+"/g)).toEqual(
      preloads.map((p) => p.replace("modulepreload", "sw-modulepreload")),
    );
    expect(out.match(/<script nonce="N1" type="sw-module" async="">/g)).toHaveLength(1);
    expect(out).toMatch(/<script nonce="N1">\(function\(\)\{var d=document[^<]*<\/script><\/head>/);
    expect(out).toContain("Scene 1: the tide turns.");
  });
});

/**
 * The page React Router 8 and React 19 really send: `<Scripts>` rendered through `ServerRouter` and React's
 * stream, as entry.server.tsx renders it. Should an upgrade change how the preloads or the module script are
 * written, the transform would find nothing to rewrite and the page would fetch its scripts before it paints;
 * this test fails instead.
 */
async function renderRealPage(nonce: string) {
  const Root = () =>
    h(
      "html",
      { lang: "en" },
      h("head", null, h("meta", { charSet: "utf-8" }), h(Meta), h(Links)),
      h("body", null, h(Outlet), h(Scripts, { nonce })),
    );
  const Page = () => h("main", null, h("p", null, "Scene 1: the tide turns."));
  const route = { hasAction: false, hasLoader: false, hasClientAction: false, hasClientLoader: false, hasClientMiddleware: false };
  const none = {
    clientActionModule: undefined,
    clientLoaderModule: undefined,
    clientMiddlewareModule: undefined,
    hydrateFallbackModule: undefined,
  };
  const handler = createStaticHandler([
    { id: "root", path: "/", Component: Root, children: [{ id: "routes/page", index: true, Component: Page }] },
  ]);
  const staticHandlerContext = await handler.query(new Request("http://127.0.0.1/"));
  if (staticHandlerContext instanceof Response) throw new Error("no page");
  const routeDiscovery = { mode: "initial" as const, manifestPath: "/__manifest" };
  const context: EntryContext = {
    manifest: {
      entry: { module: "/assets/entry.client-A.js", imports: ["/assets/chunk-C.js"] },
      routes: {
        root: {
          id: "root",
          path: "/",
          module: "/assets/root-B.js",
          imports: ["/assets/chunk-C.js"],
          hasErrorBoundary: false,
          ...route,
          ...none,
        },
        "routes/page": {
          id: "routes/page",
          parentId: "root",
          index: true,
          module: "/assets/page-D.js",
          hasErrorBoundary: false,
          ...route,
          ...none,
        },
      },
      url: "/assets/manifest-V.js",
      version: "V",
    },
    routeModules: { root: { default: Root }, "routes/page": { default: Page } },
    staticHandlerContext,
    serverHandoffString: JSON.stringify({ basename: "/", future: {}, routeDiscovery, ssr: true, isSpaMode: false }),
    future: {},
    ssr: true,
    isSpaMode: false,
    routeDiscovery,
    branches: [],
  };
  const body = await renderToReadableStream(h(ServerRouter, { context, url: "http://127.0.0.1/", nonce }), {
    nonce,
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  await body.allReady;
  return body;
}
