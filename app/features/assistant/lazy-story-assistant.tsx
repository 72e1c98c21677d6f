import { type ComponentType, Suspense, lazy } from "react";
import { loadWhenOnline } from "~/lib/load-when-online";
import { idle } from "~/lib/when-idle";
import type { StoryAssistantProps } from "./story-assistant";

// The Story Assistant beside the timeline: the server renders it in place (entry.server registers it); in the
// browser its code (the AI streams, their toasts and forms) loads once the page is hydrated, and until then
// hydration leaves the server's HTML as it is. It is not in the timeline's first-paint JavaScript.

let server: ComponentType<StoryAssistantProps> | undefined;
export const setServerStoryAssistant = (component: ComponentType<StoryAssistantProps>) => {
  server = component;
};

const Loaded = lazy(() => idle(2000).then(loadWhenOnline(() => import("./story-assistant").then((m) => ({ default: m.StoryAssistant })))));

export function LazyStoryAssistant(props: StoryAssistantProps) {
  const Assistant = server ?? Loaded;
  return (
    <Suspense fallback={null}>
      <Assistant {...props} />
    </Suspense>
  );
}
