import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";
import { restoreOutbox } from "~/features/offline/outbox";

import { keptOnDevice, timelineQueryClient } from "./timeline-query";

/**
 * The timeline screen's client data layer: the page's QueryClient, and once in the browser what this account kept
 * on the device (lists and queued changes) restored, the queued changes sent when the network is there.
 */
export function TimelineQueryProvider({ userId, children }: { userId: number; children: ReactNode }) {
  const [client] = useState(timelineQueryClient);
  // Once per page: the app shell may have restored it already (resume-outbox.ts).
  useEffect(() => void restoreOutbox(client, userId, keptOnDevice), [client, userId]);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
