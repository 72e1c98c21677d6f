import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { restoreOutbox } from "~/features/offline/outbox";

import { timelineQueryClient } from "./timeline-query";

/** The lists kept on the device with the queued changes: the chapters (the scenes come with the page's kept data). */
const keptOnDevice = (queryKey: readonly unknown[]) => queryKey[0] === "chapters";

/** What this account kept on the device, restored and (online) sent: from any page (the app shell), not only here. */
export const restoreKept = (userId: number) => restoreOutbox(timelineQueryClient(), userId, keptOnDevice);

/**
 * The timeline screen's client data layer: the page's QueryClient, and once in the browser what this account kept
 * on the device (lists and queued changes) restored, the queued changes sent when the network is there.
 */
export function TimelineQueryProvider({ userId, children }: { userId: number; children: ReactNode }) {
  const [client] = useState(timelineQueryClient);
  useEffect(() => void restoreKept(userId), [userId]);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
