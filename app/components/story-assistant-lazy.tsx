import { type ComponentType, lazy, Suspense, useEffect } from "react";
import { firstInteraction, interactionNow } from "~/lib/first-interaction";

type Props = { timelineId: number; shareCode?: string | null };

/**
 * Issue 11: the Story Assistant's code (its tools and the AI stream) loads with the first interaction with the
 * page, not before the first paint. The server renders the panel in place (entry.server registers it); until
 * the code arrives the browser shows that HTML (React hydrates it once loaded) and anything typed into it is
 * kept (the tools pick up their fields' text when they hydrate). Render it from a memoized element: an update
 * reaching the panel before it hydrated makes React render it afresh, and then it loads at once.
 */
const Assistant = lazy(() =>
  firstInteraction()
    .then(() => import("~/components/story-assistant"))
    .then((m) => ({ default: m.StoryAssistant })),
);

let onServer: ComponentType<Props> | undefined;

/** entry.server: the panel renders in the page's HTML rather than streamed after it. */
export function registerServerStoryAssistant(component: ComponentType<Props>) {
  onServer = component;
}

/** Shown only if the server's HTML was dropped (never while it waits to hydrate): load now. */
function LoadingNow() {
  useEffect(interactionNow, []);
  return null;
}

export function LazyStoryAssistant(props: Props) {
  const Component = import.meta.env.SSR && onServer ? onServer : Assistant;
  return (
    <Suspense fallback={<LoadingNow />}>
      <Component {...props} />
    </Suspense>
  );
}
