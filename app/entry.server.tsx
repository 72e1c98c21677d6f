import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import appCss from "./app.css?inline";
import { appContext } from "./context";
import { InlineCss } from "./lib/inline-css";

const inlineCss = { __html: appCss };

export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  // Dev serves inline HMR code under a relaxed CSP; a nonce there only causes hydration warnings
  // (browsers hide nonce attributes from the DOM), so it is used in production builds only.
  const nonce = import.meta.env.DEV ? undefined : loadContext.get(appContext).nonce;
  let shellRendered = false;
  const body = await renderToReadableStream(
    <InlineCss.Provider value={import.meta.env.DEV ? null : inlineCss}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </InlineCss.Provider>,
    {
      nonce,
      // Everything the server rendered goes out in document order: React would otherwise send a finished
      // Suspense boundary after the first 12.8 KB (its default) apart, to be revealed by a script later.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      signal: AbortSignal.timeout(streamTimeout + 1000),
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    },
  );
  shellRendered = true;
  const userAgent = request.headers.get("user-agent");
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) await body.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(lowPriorityPreloads(body), { headers: responseHeaders, status: responseStatusCode });
}

const PRELOAD = '<link rel="modulepreload"';

/**
 * Issue 11: the route's module preloads (React Router renders them in <head>) are fetched at low priority. The
 * first paint needs none of them (the stylesheet is inline, module scripts never block rendering), so the HTML
 * goes first on a slow connection, and tools that treat high-priority scripts as render-blocking stop doing so.
 */
function lowPriorityPreloads(body: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let inHead = true;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        let text = decoder.decode(chunk, { stream: true });
        if (inHead) {
          const end = text.indexOf("</head>");
          const head = end < 0 ? text : text.slice(0, end);
          text = head.replaceAll(PRELOAD, `${PRELOAD} fetchpriority="low"`) + (end < 0 ? "" : text.slice(end));
          if (end >= 0) inHead = false;
        }
        if (text) controller.enqueue(encoder.encode(text));
      },
      flush(controller) {
        const rest = decoder.decode();
        if (rest) controller.enqueue(encoder.encode(rest));
      },
    }),
  );
}
