import type { QueryClient } from "@tanstack/react-query";
import { setChapterDefaults } from "~/features/chapters/chapter-queries";
import { outboxClient } from "~/features/offline/outbox";
import { setPlotlineDefaults } from "~/features/plotlines/plotline-queries";
import { setCodexDefaults } from "~/features/codex/codex-queries";
import { setCommentDefaults } from "~/features/review/comment-queries";
import { setEventDefaults } from "./event-changes";

/**
 * The timeline screen's QueryClient (one for the page's life in the browser): every resource's changes set their
 * defaults here, so a change restored from the outbox knows how to send itself. The scenes' (events') changes too.
 */
export function timelineQueryClient(): QueryClient {
  return outboxClient((client) => {
    setChapterDefaults(client);
    setEventDefaults(client);
    setPlotlineDefaults(client);
    setCodexDefaults(client);
    setCommentDefaults(client);
  });
}

/**
 * The lists kept on the device with the queued changes: the chapters, plotlines and codex (the scenes come with the
 * page's kept data).
 */
const KEPT = new Set(["chapters", "plotlines", "codex"]);
export const keptOnDevice = (queryKey: readonly unknown[]) => KEPT.has(queryKey[0] as string);
