import type { Server } from "node:http";
export const FAKE_OPENAI_KEY: string;
export function startFakeOpenAIServer(port?: number): Promise<{ server: Server; url: string; port: number; requests: unknown[] }>;
