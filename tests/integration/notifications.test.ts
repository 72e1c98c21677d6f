import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { createMailer } from "../../worker/lib/mailer";
import { sendDailyDigests } from "../../worker/services/digest";
import { previewInvitation } from "../../worker/services/invitations";
import { HOUR } from "../../worker/lib/time";
import { purgeExpired } from "../../worker/services/purge";
import { signIn, uniqueId } from "./oauth-helpers";
import { call, createEvent, markVerified, premiumOwnerWithTimeline, registerUser, shareByEmail, uniqueEmail } from "./helpers";

// Notifications mail through the fake mail API (tests/fakes/mail-server.mjs), read back as a writer would.
const mailEnv = { MAILER: "http", MAIL_API_URL: `${env.FAKE_MAIL_URL}/send`, MAIL_API_KEY: "fake-mail-key" };
type Mail = { to: string; subject: string; text: string };
async function mailTo(email: string): Promise<{ messages: Mail[]; verifyLink: string | null }> {
  return (await fetch(`${env.FAKE_MAIL_URL}/messages?to=${encodeURIComponent(email)}`)).json();
}
const inbox = async (token: string) => (await call("GET", "/api/notifications", { token })).json;
const post = (token: string, eventId: number, body: string, threadId?: number) =>
  call("POST", `/api/events/${eventId}/comments`, { token, body: { body, ...(threadId && { threadId }) }, env: mailEnv });
const setNotify = (token: string, notifyEmail: unknown) => call("PATCH", "/api/account", { token, body: { notifyEmail } });

/** An owner, a collaborator, a viewer, a writer who joined by the link, and a stranger; one scene. */
async function team() {
  const { owner, timelineId } = await premiumOwnerWithTimeline("Review story");
  const cora = await registerUser({ name: "Cora Collab" });
  const vic = await registerUser({ name: "Vic Viewer" });
  const lin = await registerUser({ name: "Lin Link" });
  const stan = await registerUser({ name: "Stan Stranger" });
  await shareByEmail(timelineId, owner.token, cora.email, "collaborator");
  await shareByEmail(timelineId, owner.token, vic.email, "viewer");
  const { shareCode } = (await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "viewer" } })).json;
  expect((await call("POST", `/api/timelines/shared/${shareCode}/join`, { token: lin.token })).status).toBe(200);
  const event = await createEvent(owner.token, timelineId, { title: "The storm" });
  // Only verified accounts' notifications are mailed (tests/integration/mail-budget.test.ts covers the others).
  for (const w of [owner, cora, vic, lin]) await markVerified(w.email);
  // The shares' own notifications are not what these tests look at.
  for (const w of [cora, vic, lin]) await call("POST", "/api/notifications/read", { token: w.token, body: {} });
  return { owner, cora, vic, lin, stan, timelineId, eventId: event.id as number };
}

describe("@mentions", () => {
  it("tell only the readers named (by name or by their email's local part), never the author or a stranger", async () => {
    const { owner, cora, vic, lin, stan, timelineId, eventId } = await team();
    const vicHandle = vic.email.split("@")[0];
    const res = await post(owner.token, eventId, `@Cora Collab and @${vicHandle}, see this. @Stan Stranger too. @Olive Owner @Lin Link`);
    expect(res.status).toBe(201);

    const coraInbox = await inbox(cora.token);
    expect(coraInbox).toEqual({
      notifications: [
        {
          id: expect.any(Number),
          type: "mention",
          title: "Olive Owner mentioned you",
          message: 'Olive Owner mentioned you in a comment on "The storm" in "Review story"',
          relatedId: res.json.id,
          relatedType: "comment",
          read: false,
          createdAt: expect.any(String),
        },
        expect.objectContaining({ type: "share", read: true }),
      ],
      unread: 1,
    });
    expect((await inbox(vic.token)).notifications[0]).toMatchObject({ type: "mention", relatedId: res.json.id });
    expect((await inbox(lin.token)).notifications[0]).toMatchObject({ type: "mention", relatedId: res.json.id });
    expect(await inbox(stan.token)).toEqual({ notifications: [], unread: 0 });
    expect(await inbox(owner.token)).toEqual({ notifications: [], unread: 0 });

    // Part of a word or of an email address is no mention.
    await post(cora.token, eventId, "write to x@Olive Owner or @Olive Ownership");
    expect((await inbox(owner.token)).unread).toBe(0);

    const people = await call("GET", `/api/timelines/${timelineId}/people`, { token: cora.token });
    expect(people.status).toBe(200);
    expect(people.json.map((p: { name: string }) => p.name)).toEqual(["Cora Collab", "Lin Link", "Olive Owner", "Vic Viewer"]);
    expect(people.json[0]).toEqual({ id: cora.user.id, name: "Cora Collab" });
    expect((await call("GET", `/api/timelines/${timelineId}/people`, { token: stan.token })).json).toEqual({ error: "Timeline not found" });
    expect((await call("GET", `/api/timelines/${timelineId}/people`)).status).toBe(401);
  });

  it("a reply tells the thread's earlier participants; one who is also mentioned hears it once, as a mention", async () => {
    const { owner, cora, vic, stan, eventId } = await team();
    const root = (await post(cora.token, eventId, "Is the storm too early?")).json;
    await post(vic.token, eventId, "I think so", root.id);
    expect((await inbox(cora.token)).notifications[0]).toMatchObject({
      type: "comment-reply",
      message: 'Vic Viewer replied to a comment thread on "The storm" in "Review story"',
      relatedId: expect.any(Number),
    });
    await post(owner.token, eventId, "@Cora Collab agreed, moving it", root.id);
    const coraTypes = (await inbox(cora.token)).notifications
      .filter((n: { read: boolean }) => !n.read)
      .map((n: { type: string }) => n.type);
    expect(coraTypes).toEqual(["mention", "comment-reply"]);
    expect((await inbox(vic.token)).notifications.filter((n: { read: boolean }) => !n.read).map((n: { type: string }) => n.type)).toEqual([
      "comment-reply",
    ]);
    // A stranger cannot reply, so cannot be a participant; the author of a reply is not told about it.
    expect((await post(stan.token, eventId, "hi", root.id)).status).toBe(404);
    expect(await inbox(owner.token)).toEqual({ notifications: [], unread: 0 });
  });
});

describe("the inbox", () => {
  it("newest first with the unread count; read by ids (others' ids ignored) or all; bad bodies 400", async () => {
    const { owner, cora, vic, eventId } = await team();
    for (const word of ["one", "two", "three"]) await post(owner.token, eventId, `@Cora Collab ${word}`);
    await post(owner.token, eventId, "@Vic Viewer hello");
    const list = await inbox(cora.token);
    expect(list.unread).toBe(3);
    const mentions = list.notifications.filter((n: { type: string }) => n.type === "mention");
    expect(mentions.map((n: { id: number }) => n.id)).toEqual([...mentions.map((n: { id: number }) => n.id)].sort((a, b) => b - a));
    const vicId = (await inbox(vic.token)).notifications[0].id;

    const read = await call("POST", "/api/notifications/read", { token: cora.token, body: { ids: [mentions[0].id, vicId] } });
    expect(read).toMatchObject({ status: 200, json: { success: true } });
    expect((await inbox(cora.token)).unread).toBe(2);
    expect((await inbox(vic.token)).notifications[0]).toMatchObject({ id: vicId, read: false });

    for (const body of [
      { ids: "all" },
      { ids: [0] },
      { ids: [1.5] },
      { ids: ["1"] },
      { ids: Array.from({ length: 501 }, (_, i) => i + 1) },
    ]) {
      expect(await call("POST", "/api/notifications/read", { token: cora.token, body })).toMatchObject({
        status: 400,
        json: { error: "ids must be notification ids" },
      });
    }
    expect((await call("POST", "/api/notifications/read", { token: cora.token, rawBody: "{not json" })).status).toBe(400);
    expect((await call("POST", "/api/notifications/read", { body: {} })).status).toBe(401);
    expect((await call("GET", "/api/notifications")).status).toBe(401);

    expect((await call("POST", "/api/notifications/read", { token: cora.token })).status).toBe(200);
    expect((await inbox(cora.token)).unread).toBe(0);
    expect((await inbox(vic.token)).unread).toBe(1);
  });

  it("keeps every unread notification (the banner's 'last 5' is not the inbox)", async () => {
    const { owner, cora, eventId } = await team();
    for (let i = 0; i < 7; i++) await post(owner.token, eventId, `@Cora Collab note ${i}`);
    const list = await inbox(cora.token);
    expect(list.notifications.filter((n: { type: string }) => n.type === "mention")).toHaveLength(7);
    expect(list.unread).toBe(7);
  });
});

describe("email per the writer's preference", () => {
  it("instant mails each with a link to the exact comment; off mails nothing; a bad value is refused", async () => {
    const { owner, cora, vic, timelineId, eventId } = await team();
    expect(await setNotify(vic.token, "weekly")).toMatchObject({
      status: 400,
      json: { error: "Email notifications must be instant, daily or off" },
    });
    expect(await setNotify(vic.token, null)).toMatchObject({
      status: 400,
      json: { error: "Email notifications must be instant, daily or off" },
    });
    expect(await setNotify(vic.token, "off")).toMatchObject({ status: 200, json: { notifyEmail: "off" } });

    const comment = (await post(owner.token, eventId, "@Cora Collab @Vic Viewer look")).json;
    const mail = (await mailTo(cora.email)).messages.filter((m) => m.subject === "Olive Owner mentioned you");
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain('Olive Owner mentioned you in a comment on "The storm" in "Review story"');
    expect(mail[0].text).toContain(`http://storyweave.test/timeline/${timelineId}?event=${eventId}&comment=${comment.id}`);
    expect((await mailTo(vic.email)).messages.filter((m) => m.subject.includes("mentioned"))).toEqual([]);
    expect((await inbox(vic.token)).unread).toBe(1);
  });

  it("daily: no instant mail; one digest a day of what is unread since the last, sent by the cron", async () => {
    const { owner, cora, eventId } = await team();
    const chosenAt = Date.now();
    expect((await setNotify(cora.token, "daily")).json.notifyEmail).toBe("daily");
    await post(owner.token, eventId, "@Cora Collab first");
    await post(owner.token, eventId, "@Cora Collab second");
    const digests = async () => (await mailTo(cora.email)).messages.filter((m) => m.subject.startsWith("Your StoryWeave digest"));
    expect((await mailTo(cora.email)).messages.filter((m) => m.subject.includes("mentioned"))).toEqual([]);

    const db = createDb(env.DB);
    const mailer = createMailer({ ...env, ...mailEnv });
    const run = (at: number) => sendDailyDigests(db, mailer, "https://storyweave.example", at);
    await run(chosenAt + HOUR);
    expect(await digests()).toEqual([]);
    await run(chosenAt + 25 * HOUR);
    const [digest] = await digests();
    expect(digest.subject).toBe("Your StoryWeave digest: 2 new notifications");
    expect(digest.text).toContain('Olive Owner mentioned you in a comment on "The storm" in "Review story"');
    expect(digest.text).toContain("https://storyweave.example/notifications");
    // Not again the same day, and nothing new means no mail the next day either.
    await run(chosenAt + 26 * HOUR);
    await run(chosenAt + 50 * HOUR);
    expect(await digests()).toHaveLength(1);
  });
});

describe("invitations", () => {
  it("sharing with a writer mails them an invitation naming the timeline and who shared it", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Invited story");
    const fern = await registerUser({ name: "Fern Friend" });
    await markVerified(fern.email);
    const res = await call("POST", `/api/timelines/${timelineId}/share-with-user`, {
      token: owner.token,
      body: { userEmail: fern.email, accessLevel: "collaborator" },
      env: mailEnv,
    });
    expect(res.status).toBe(201);
    const [mail] = (await mailTo(fern.email)).messages;
    expect(mail.subject).toBe('Olive Owner shared "Invited story" with you');
    expect(mail.text).toContain(`http://storyweave.test/timeline/${timelineId}`);
    expect((await inbox(fern.token)).notifications[0]).toMatchObject({ type: "share", relatedId: timelineId, relatedType: "timeline" });
  });

  it("a viewer's mail opens the book to read (the Manuscript); an editor's the timeline", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Read along");
    const vera = await registerUser({ name: "Vera Viewer" });
    await markVerified(vera.email);
    const res = await call("POST", `/api/timelines/${timelineId}/share-with-user`, {
      token: owner.token,
      body: { userEmail: vera.email, accessLevel: "viewer" },
      env: mailEnv,
    });
    expect(res.status).toBe(201);
    const [mail] = (await mailTo(vera.email)).messages;
    expect(mail.text).toContain(`Open it: http://storyweave.test/timeline/${timelineId}/manuscript`);
  });

  it("an address with no account: 404 by default; invited, it registers, verifies, and the share exists", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Waiting story");
    const email = uniqueEmail("newcomer");
    const share = (body: Record<string, unknown>) =>
      call("POST", `/api/timelines/${timelineId}/share-with-user`, {
        token: owner.token,
        body: { userEmail: email, ...body },
        env: mailEnv,
      });
    expect(await share({})).toMatchObject({ status: 404, json: { error: "No user found with that email address" } });
    expect((await share({ invite: "yes" })).status).toBe(400);
    const invited = await share({ accessLevel: "collaborator", invite: true });
    expect(invited).toMatchObject({ status: 201, json: { invited: true, email, accessLevel: "collaborator" } });

    const [mail] = (await mailTo(email)).messages;
    expect(mail.subject).toBe('Olive Owner invited you to "Waiting story" on StoryWeave');
    const link = new URL(mail.text.match(/http:\/\/storyweave\.test\/auth\/register\?\S+/)![0]);
    expect(link.searchParams.get("redirectTo")).toBe(`/timeline/${timelineId}`);
    const token = link.searchParams.get("invite")!;
    expect(await previewInvitation(createDb(env.DB), token)).toEqual({ email, timelineTitle: "Waiting story", inviterName: "Olive Owner" });
    expect(await previewInvitation(createDb(env.DB), "forged-token")).toBeNull();

    // Registered but not verified: nothing yet.
    const reg = await call("POST", "/api/auth/register", { body: { name: "Nia New", email, password: "secret-pass-1" }, env: mailEnv });
    expect(reg.status).toBe(201);
    expect((await call("GET", `/api/timelines/${timelineId}`, { token: reg.json.token })).status).toBe(404);

    const verifyToken = new URL((await mailTo(email)).verifyLink!).searchParams.get("token");
    expect((await call("POST", "/api/auth/verify-email", { body: { token: verifyToken } })).status).toBe(200);
    expect((await call("GET", `/api/timelines/${timelineId}`, { token: reg.json.token })).json).toMatchObject({
      id: timelineId,
      accessLevel: "collaborator",
    });
    // Used up: the link shows nothing any more.
    expect(await previewInvitation(createDb(env.DB), token)).toBeNull();
  });

  it("an invited address that signs up through OAuth (verified by the provider) lands in the timeline; an unverified one does not", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Provider story");
    const email = uniqueEmail("oauth-invited");
    const other = uniqueEmail("oauth-unverified");
    for (const userEmail of [email, other]) {
      const res = await call("POST", `/api/timelines/${timelineId}/share-with-user`, {
        token: owner.token,
        body: { userEmail, accessLevel: "viewer", invite: true },
      });
      expect(res.status, res.text).toBe(201);
    }
    const verified = await signIn("github", { id: uniqueId(), name: "Gil Hub", email, emailVerified: true });
    expect(verified.session).not.toBeNull();
    const viewed = await call("GET", `/api/timelines/${timelineId}`, { headers: { Cookie: verified.session! } });
    expect(viewed.json).toMatchObject({ id: timelineId, accessLevel: "viewer" });
    const unverified = await signIn("github", { id: uniqueId(), name: "Una Hub", email: other, emailVerified: false });
    expect(unverified.session).not.toBeNull();
    expect((await call("GET", `/api/timelines/${timelineId}`, { headers: { Cookie: unverified.session! } })).status).toBe(404);
  });

  it("expired invitations are purged by the hourly clean-up; live ones stay", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const [stale, fresh] = [uniqueEmail("stale"), uniqueEmail("fresh")];
    for (const userEmail of [stale, fresh]) {
      await call("POST", `/api/timelines/${timelineId}/share-with-user`, { token: owner.token, body: { userEmail, invite: true } });
    }
    await env.DB.prepare("UPDATE invitations SET expires_at = ? WHERE lower(email) = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), stale)
      .run();
    const purged = await purgeExpired(createDb(env.DB));
    expect(purged.invitations).toBeGreaterThanOrEqual(1);
    const left = await env.DB.prepare("SELECT lower(email) AS email FROM invitations WHERE timeline_id = ?").bind(timelineId).all();
    expect(left.results.map((r) => r.email)).toEqual([fresh]);
  });

  it("the invitation belongs to the invited address: another address that registers and verifies gets nothing", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const invitedEmail = uniqueEmail("invited");
    await call("POST", `/api/timelines/${timelineId}/share-with-user`, {
      token: owner.token,
      body: { userEmail: invitedEmail, invite: true },
      env: mailEnv,
    });
    const other = uniqueEmail("other");
    const reg = await call("POST", "/api/auth/register", {
      body: { name: "Oz Other", email: other, password: "secret-pass-1" },
      env: mailEnv,
    });
    const verifyToken = new URL((await mailTo(other)).verifyLink!).searchParams.get("token");
    expect((await call("POST", "/api/auth/verify-email", { body: { token: verifyToken } })).status).toBe(200);
    expect((await call("GET", `/api/timelines/${timelineId}`, { token: reg.json.token })).status).toBe(404);
    // Only the invitation to the invited address is listed, still waiting.
    expect((await call("GET", `/api/timelines/${timelineId}/shares`, { token: owner.token })).json).toEqual([
      expect.objectContaining({ pending: true, sharedWithUserId: null, sharedWithUserEmail: invitedEmail }),
    ]);
  });

  it("floods of shares and invitations get 429", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const limited = { ...mailEnv, RATE_INVITATIONS_PER_ACCOUNT_PER_HOUR: "3" };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call("POST", `/api/timelines/${timelineId}/share-with-user`, {
        token: owner.token,
        body: { userEmail: uniqueEmail("flood"), invite: true },
        env: limited,
      });
      statuses.push(res.status);
      if (res.status === 429) expect(res.json.error).toMatch(/^Too many invitations/);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });
});
