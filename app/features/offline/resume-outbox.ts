import { keptOnDevice, timelineQueryClient } from "~/features/timeline/timeline-query";
import { restoreOutbox } from "./outbox";

/**
 * What this account kept on the device (lists and queued changes) restored and, online, sent: from any signed-in page,
 * not only a timeline screen. Loaded only on demand (`resumeKeptChanges` in service-worker.ts), never statically.
 */
export const resumeOutbox = (userId: number) => restoreOutbox(timelineQueryClient(), userId, keptOnDevice);
