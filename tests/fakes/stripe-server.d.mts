import type { Server } from "node:http";
export function startFakeStripeServer(
  port?: number,
): Promise<{ server: Server; url: string; port: number; sessions: Map<string, any>; subscriptions: Map<string, any> }>;
