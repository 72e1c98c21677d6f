import type { Server } from "node:http";
export const FAKE_ANTHROPIC_KEY: string;
export function startFakeAnthropicServer(port?: number): Promise<{ server: Server; url: string; port: number; requests: unknown[] }>;
