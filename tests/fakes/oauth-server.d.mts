import type { Server } from "node:http";
export type FakeOAuthProfile = {
  id: string | number;
  name?: string | null;
  email?: string | null;
  emailVerified?: boolean;
  login?: string;
};
export const FAKE_OAUTH_CLIENTS: Record<"github" | "google", { id: string; secret: string }>;
export function startFakeOAuthServer(port?: number): Promise<{
  server: Server;
  url: string;
  port: number;
  profiles: Record<"github" | "google", FakeOAuthProfile>;
  exchanges: { provider: string; ok: boolean; error: string | null }[];
}>;
export function fakeOAuthVars(url: string, providers?: ("github" | "google")[]): Record<string, string>;
