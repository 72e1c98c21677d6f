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

const encoder = new TextEncoder();
const PRELOAD = encoder.encode('<link rel="modulepreload"');
const LOW = encoder.encode(' fetchpriority="low"');
const HEAD_END = encoder.encode("</head>");

/** Where `pattern` starts in `bytes` at or after `from`, or -1. */
function indexOf(bytes: Uint8Array, pattern: Uint8Array, from = 0) {
  outer: for (let i = from; i <= bytes.length - pattern.length; i++) {
    for (let k = 0; k < pattern.length; k++) if (bytes[i + k] !== pattern[k]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Issue 11: the route's module preloads (React Router renders them in <head>) are fetched at low priority. The
 * first paint needs none of them (the stylesheet is inline, module scripts never block rendering), so the HTML
 * goes first on a slow connection, and tools that treat high-priority scripts as render-blocking stop doing so.
 * The markers are ASCII, so the bytes are edited as they are; after </head> every chunk passes through untouched.
 */
function lowPriorityPreloads(body: ReadableStream<Uint8Array>) {
  let inHead = true;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!inHead) return controller.enqueue(chunk);
        const headEnd = indexOf(chunk, HEAD_END);
        if (headEnd >= 0) inHead = false;
        const head = headEnd < 0 ? chunk : chunk.subarray(0, headEnd);
        const found: number[] = [];
        for (let at = indexOf(head, PRELOAD); at >= 0; at = indexOf(head, PRELOAD, at + 1)) found.push(at + PRELOAD.length);
        if (found.length === 0) return controller.enqueue(chunk);
        const out = new Uint8Array(chunk.length + found.length * LOW.length);
        let from = 0;
        let to = 0;
        for (const at of found) {
          out.set(chunk.subarray(from, at), to);
          to += at - from;
          out.set(LOW, to);
          to += LOW.length;
          from = at;
        }
        out.set(chunk.subarray(from), to);
        controller.enqueue(out);
      },
    }),
  );
}
