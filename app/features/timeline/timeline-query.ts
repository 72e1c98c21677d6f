import type { QueryClient } from "@tanstack/react-query";
import { setChapterDefaults } from "~/features/chapters/chapter-queries";
import { outboxClient } from "~/features/offline/outbox";
import { setPlotlineDefaults } from "~/features/plotlines/plotline-queries";
import { setCodexDefaults } from "~/features/codex/codex-queries";

/**
 * The timeline screen's QueryClient (one for the page's life in the browser): every resource's changes set their
 * defaults here, so a change restored from the outbox knows how to send itself. Scenes (events) join next.
 */
export function timelineQueryClient(): QueryClient {
  return outboxClient((client) => {
    setChapterDefaults(client);
    setPlotlineDefaults(client);
    setCodexDefaults(client);
  });
}
