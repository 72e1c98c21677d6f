import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import appCss from "./app.css?inline";
import { appContext } from "./context";
import { InlineCss } from "./lib/inline-css";
import { setServerStoryAssistant } from "./features/assistant/lazy-story-assistant";
import { StoryAssistant } from "./features/assistant/story-assistant";
import FormattedText from "./ui/formatted-text";
import { setServerFormattedText } from "./ui/lazy-formatted-text";

// Stored text is rendered formatted on the server; the browser's copy of the renderer loads after hydration.
setServerFormattedText(FormattedText);
setServerStoryAssistant(StoryAssistant);

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
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
