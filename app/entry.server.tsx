import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import appCss from "./app.css?inline";
import { registerServerStoryAssistant } from "./components/story-assistant-lazy";
import { StoryAssistant } from "./components/story-assistant";
import { appContext } from "./context";
import { InlineCss } from "./lib/inline-css";

const inlineCss = { __html: appCss };
registerServerStoryAssistant(StoryAssistant);

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
