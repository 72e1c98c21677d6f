import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import worker from "../../worker/index";
import { FAKE_OPENAI_KEY } from "../fakes/openai-server.mjs";

export const ORIGIN = "http://storyweave.test";
let counter = 0;

/** A unique email per call: test files never depend on order or on empty tables. */
export function uniqueEmail(prefix = "writer") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}

type CallOptions = {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  rawBody?: string | Uint8Array<ArrayBuffer>;
  /** Bindings in place of the test config's (e.g. a lower rate limit). */
  env?: Partial<typeof env>;
};

/** Calls the real Worker (API, guards, headers) inside workerd. */
export async function call(method: string, path: string, opts: CallOptions = {}) {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("Authorization", `Bearer ${opts.token}`);
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  const ctx = createExecutionContext();
  const request = new Request(ORIGIN + path, { method, headers, body }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(request, opts.env ? { ...env, ...opts.env } : env, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json, text };
}

export async function registerUser(overrides: { name?: string; email?: string; password?: string } = {}) {
  const input = { name: "Test Writer", email: uniqueEmail(), password: "secret-pass-1", ...overrides };
  const res = await call("POST", "/api/auth/register", { body: input });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { ...input, token: res.json.token as string, user: res.json.user, cookie: res.headers.get("Set-Cookie") };
}

/** A registered writer as `registerUser` answers: their input, token, user row and session cookie. */
export type User = Awaited<ReturnType<typeof registerUser>>;

/** A writer registered as `name` and on Premium (set directly, as the admin grant does). */
export async function premiumWriter(name: string) {
  const writer = await registerUser({ name });
  await makePremium(writer.user.id);
  return writer;
}

/** Sends a book file to the import (POST /api/timelines/import{query}: `?dryRun=1`, `?filename=…`) as `token`'s writer. */
export const importBook = (token: string, body: Uint8Array | string, contentType: string, query = "") =>
  call("POST", `/api/timelines/import${query}`, {
    token,
    rawBody: typeof body === "string" ? body : new Uint8Array(body),
    headers: { "Content-Type": contentType },
  });

/** A timeline's JSON export (GET /api/timelines/{id}/export?format=json), as `token`'s writer reads it; it must answer 200. */
export async function exportedJson(token: string, timelineId: number) {
  const res = await call("GET", `/api/timelines/${timelineId}/export?format=json`, { token });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** The test env's ADMIN_EMAILS address (vitest.config.ts). */
export const TEST_ADMIN = { name: "Ada Admin", email: "admin@example.test", password: "secret-pass-1" };

/** Sets is_email_verified directly (as opening the emailed link does); the role follows at the next sign-in. */
export async function markVerified(email: string) {
  await env.DB.prepare("UPDATE users SET is_email_verified = 1 WHERE lower(email) = ?").bind(email.toLowerCase()).run();
}

/** The ADMIN_EMAILS account: registered on first use, verified, then signed in (admin needs a verified address). */
export async function signInAdmin() {
  await call("POST", "/api/auth/register", { body: TEST_ADMIN });
  await markVerified(TEST_ADMIN.email);
  const res = await call("POST", "/api/auth/login", { body: { email: TEST_ADMIN.email, password: TEST_ADMIN.password } });
  if (res.status !== 200 || res.json.user.role !== "admin") throw new Error(`admin sign-in failed: ${res.status} ${res.text}`);
  return { token: res.json.token as string, user: res.json.user };
}

/** Creates a timeline through the API (owner = token's user). */
export async function createTimeline(token: string, overrides: Record<string, unknown> = {}) {
  const res = await call("POST", "/api/timelines", { token, body: { title: "A Timeline", ...overrides } });
  if (res.status !== 201) throw new Error(`createTimeline failed: ${res.status} ${res.text}`);
  return res.json;
}

/** Creates an event through the API. */
export async function createEvent(token: string, timelineId: number, overrides: Record<string, unknown> = {}) {
  const res = await call("POST", `/api/timelines/${timelineId}/events`, {
    token,
    body: { title: "An event", content: "Something happens", ...overrides },
  });
  if (res.status !== 201) throw new Error(`createEvent failed: ${res.status} ${res.text}`);
  return res.json;
}

/** Inserts a timeline_shares row directly. */
export async function shareWith(timelineId: number, ownerId: number, userId: number, level: "viewer" | "collaborator") {
  await env.DB.prepare(
    "INSERT INTO timeline_shares (timeline_id, shared_by_user_id, shared_with_user_id, access_level) VALUES (?, ?, ?, ?)",
  )
    .bind(timelineId, ownerId, userId, level)
    .run();
}

/** Sets subscription_tier='premium' directly (endDate null = open-ended). */
export async function makePremium(userId: number, endDate: string | null = null) {
  await env.DB.prepare("UPDATE users SET subscription_tier = 'premium', subscription_end_date = ? WHERE id = ?")
    .bind(endDate, userId)
    .run();
}

/** A writer on Premium (set directly, as the admin grant does) with one timeline. */
export async function premiumOwnerWithTimeline(title = "Shared story") {
  const owner = await registerUser({ name: "Olive Owner" });
  await env.DB.prepare("UPDATE users SET subscription_tier = 'premium' WHERE id = ?").bind(owner.user.id).run();
  const timeline = await createTimeline(owner.token, { title });
  return { owner, timelineId: timeline.id as number };
}

/**
 * Shares with a writer who has verified their address (marked here): a share with an unverified address is only
 * a pending invitation until it is verified (trust-shares.test.ts).
 */
export async function shareByEmail(timelineId: number, ownerToken: string, email: string, accessLevel: "viewer" | "collaborator") {
  await markVerified(email);
  const res = await call("POST", `/api/timelines/${timelineId}/share-with-user`, {
    token: ownerToken,
    body: { userEmail: email, accessLevel },
  });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** Runs `fn` and returns what the LogMailer printed (the local mailer: the message goes to the log). */
export async function capturedMail(fn: () => Promise<unknown>) {
  const logs: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => void logs.push(args.join(" "));
  try {
    await fn();
  } finally {
    console.log = original;
  }
  return logs.join("\n");
}

/** What the fake OpenAI server (tests/fakes/openai-server.mjs) has been asked, oldest first. */
export const fakeRequests = async () => (await (await fetch(env.OPENAI_BASE_URL!.replace(/\/v1$/, "/requests"))).json()) as any[];

/** The newest request to the fake OpenAI server whose user message contains `marker`. */
export const lastRequestWith = async (marker: string) => (await fakeRequests()).filter((r) => r.user.includes(marker)).at(-1);

/** Calls the real Worker and hands back its raw Response (downloads, uploads: what `call` would read as JSON). */
export async function fetchRaw(path: string, token?: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (token) headers.set("Authorization", `Bearer ${token}`);
  const ctx = createExecutionContext();
  const request = new Request(ORIGIN + path, { ...init, headers }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** A Premium owner's timeline shared with Cara (collaborator) and Vic (viewer); Otto is a stranger to it. */
export async function sharedTimeline(title: string) {
  const owner = await registerUser({ name: "Olive Owner" });
  await makePremium(owner.user.id);
  const timeline = await createTimeline(owner.token, { title });
  const collab = await registerUser({ name: "Cara" });
  const viewer = await registerUser({ name: "Vic" });
  const stranger = await registerUser({ name: "Otto" });
  await shareWith(timeline.id, owner.user.id, collab.user.id, "collaborator");
  await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
  return { owner, collab, viewer, stranger, timelineId: timeline.id as number };
}

/** Who an access matrix asks as: the owner, a collaborator, a viewer, a viewer by the share link, a stranger, no one. */
export type Role = "owner" | "collaborator" | "viewer" | "shareViewer" | "stranger" | "anonymous";
export const ROLES: Role[] = ["owner", "collaborator", "viewer", "shareViewer", "stranger", "anonymous"];

/**
 * The writers of an access matrix: Olive the owner (on Premium: the matrix makes a timeline per case), Cora her
 * collaborator, a viewer, a guest by the share link and a stranger; `tokenOf` answers each role's token.
 */
export async function matrixWriters() {
  const [owner, collaborator, viewer, linkGuest, stranger] = await Promise.all([
    registerUser({ name: "Olive" }),
    registerUser({ name: "Cora" }),
    registerUser(),
    registerUser(),
    registerUser(),
  ]);
  await makePremium(owner.user.id);
  const tokenOf = (role: Role) => ({ owner, collaborator, viewer, shareViewer: linkGuest, stranger, anonymous: undefined })[role]?.token;
  return { owner, collaborator, viewer, linkGuest, stranger, tokenOf };
}

/** Shares a matrix's timeline as the roles say: with the collaborator and the viewer, and by a viewer-only link (its code). */
export async function shareAsMatrix(timelineId: number, writers: { owner: User; collaborator: User; viewer: User }) {
  const shareCode = `code-${timelineId}-${Math.random().toString(36).slice(2, 8)}`;
  await env.DB.prepare("UPDATE timelines SET share_code = ?, share_role = 'viewer' WHERE id = ?").bind(shareCode, timelineId).run();
  await shareWith(timelineId, writers.owner.user.id, writers.collaborator.user.id, "collaborator");
  await shareWith(timelineId, writers.owner.user.id, writers.viewer.user.id, "viewer");
  return shareCode;
}

/** The bytes of a `data:` URL (a fixture file imported with `?inline`). */
export const bytesOf = (dataUrl: string) => Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(",") + 1)), (c) => c.charCodeAt(0));

/**
 * The lighthouse story the codex AI tests share: an owner writing with their own model (the fake OpenAI
 * server), a timeline 'The Lighthouse' with chapters 3, 9 and 12, one scene each ('Scene of chapter 9', …).
 */
export async function lighthouseStory() {
  const owner = await registerUser();
  const own = { provider: "openai-compatible", baseUrl: env.OPENAI_BASE_URL!, model: "m", apiKey: FAKE_OPENAI_KEY };
  expect((await call("PUT", "/api/account/ai", { token: owner.token, body: own })).status).toBe(200);
  const timeline = await createTimeline(owner.token, { title: "The Lighthouse" });
  const scenes: Record<string, any> = {};
  for (const n of ["3", "9", "12"]) {
    const chapter = await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: owner.token, body: { title: `Chapter ${n}` } });
    expect(chapter.status, chapter.text).toBe(201);
    scenes[n] = await createEvent(owner.token, timeline.id, {
      title: `Scene of chapter ${n}`,
      content: "Waves.",
      chapterId: chapter.json.id,
    });
  }
  return { owner, timeline, scenes };
}
