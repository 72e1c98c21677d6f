import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { listInvitationsWaitingFor, previewInvitation } from "../../worker/services/invitations";
import { call, markVerified, premiumOwnerWithTimeline, registerUser, shareByEmail, signInAdmin, uniqueEmail } from "./helpers";

// Shares reach only proven addresses: a share with an account that never verified its address (anyone may
// register anyone's address) waits as an invitation the owner sees and can take back.

const mailEnv = { MAILER: "http", MAIL_API_URL: `${env.FAKE_MAIL_URL}/send`, MAIL_API_KEY: "fake-mail-key" };
type Mail = { to: string; subject: string; text: string };
async function mailTo(email: string): Promise<{ messages: Mail[]; verifyLink: string | null }> {
  return (await fetch(`${env.FAKE_MAIL_URL}/messages?to=${encodeURIComponent(email)}`)).json();
}
const invitationMails = async (email: string) => (await mailTo(email)).messages.filter((m) => m.subject.includes("invited you to"));

const share = (timelineId: number, token: string, body: Record<string, unknown>) =>
  call("POST", `/api/timelines/${timelineId}/share-with-user`, { token, body, env: mailEnv });
const shares = async (timelineId: number, token: string) => (await call("GET", `/api/timelines/${timelineId}/shares`, { token })).json;
const cancel = (timelineId: number, invitationId: number | string, token: string) =>
  call("DELETE", `/api/timelines/${timelineId}/invitations/${invitationId}`, { token });
const pendingCount = async (timelineId: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM invitations WHERE timeline_id = ?").bind(timelineId).first<{ n: number }>())!.n;

/** A writer registered with an address they never verify (mailed through the fake, so the link can be opened later). */
async function squatter(email = uniqueEmail("colleague")) {
  const res = await call("POST", "/api/auth/register", { body: { name: "Sam Squatter", email, password: "secret-pass-1" }, env: mailEnv });
  expect(res.status, res.text).toBe(201);
  return { email, token: res.json.token as string, id: res.json.user.id as number };
}

async function verify(email: string) {
  const token = new URL((await mailTo(email)).verifyLink!).searchParams.get("token");
  expect((await call("POST", "/api/auth/verify-email", { body: { token } })).status).toBe(200);
}

describe("a share with an unverified address", () => {
  it("gives the account nothing until the address is verified, and the owner sees it as pending", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Colleague's story");
    const sam = await squatter();
    const res = await share(timelineId, owner.token, { userEmail: sam.email, accessLevel: "collaborator" });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ pending: true, invited: true, sharedWithUserId: sam.id, accessLevel: "collaborator" });

    expect((await call("GET", `/api/timelines/${timelineId}`, { token: sam.token })).status).toBe(404);
    expect((await call("GET", `/api/timelines/${timelineId}/events`, { token: sam.token })).status).toBe(404);
    const write = await call("POST", `/api/timelines/${timelineId}/events`, {
      token: sam.token,
      body: { title: "Mine now", content: "x" },
    });
    expect(write.status).toBe(404);
    expect((await call("GET", "/api/timelines", { token: sam.token })).json.map((t: { id: number }) => t.id)).not.toContain(timelineId);
    expect(await shares(timelineId, owner.token)).toEqual([
      {
        id: res.json.id,
        pending: true,
        sharedWithUserId: sam.id,
        sharedWithUserName: "Sam Squatter",
        sharedWithUserEmail: sam.email,
        accessLevel: "collaborator",
        expiresAt: expect.any(String),
      },
    ]);
    const [mail] = await invitationMails(sam.email);
    expect(mail.text).toContain(`http://storyweave.test/auth/login?redirectTo=${encodeURIComponent(`/timeline/${timelineId}`)}`);

    // What the invited writer sees meanwhile (only their own address's invitations).
    const db = createDb(env.DB);
    const me = { email: sam.email, isEmailVerified: false };
    expect(await listInvitationsWaitingFor(db, me)).toEqual([{ timelineId, title: "Colleague's story" }]);
    expect(await listInvitationsWaitingFor(db, { email: owner.email, isEmailVerified: false })).toEqual([]);

    await verify(sam.email);
    expect((await call("GET", `/api/timelines/${timelineId}`, { token: sam.token })).json).toMatchObject({
      id: timelineId,
      accessLevel: "collaborator",
    });
    const after = await shares(timelineId, owner.token);
    expect(after).toEqual([expect.objectContaining({ sharedWithUserId: sam.id, accessLevel: "collaborator" })]);
    expect(after[0].pending).toBeUndefined();
    expect(await listInvitationsWaitingFor(db, { ...me, isEmailVerified: true })).toEqual([]);
  });

  it("a verified writer is shared with at once, as before", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const fern = await registerUser({ name: "Fern Friend" });
    const res = await shareByEmail(timelineId, owner.token, fern.email, "viewer");
    expect(res.pending).toBeUndefined();
    expect((await call("GET", `/api/timelines/${timelineId}`, { token: fern.token })).status).toBe(200);
  });
});

describe("taking an invitation back", () => {
  it("the owner cancels; a collaborator gets 403, a stranger and forged ids 404; nothing is granted after", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const other = await premiumOwnerWithTimeline();
    const collab = await registerUser();
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    const stranger = await registerUser();
    const sam = await squatter();
    const invited = (await share(timelineId, owner.token, { userEmail: sam.email, accessLevel: "viewer" })).json;
    const elsewhere = (await share(other.timelineId, other.owner.token, { userEmail: uniqueEmail("x"), invite: true })).json;

    expect(await cancel(timelineId, invited.id, collab.token)).toMatchObject({
      status: 403,
      json: { error: "Only the owner of this timeline can do that" },
    });
    expect(await cancel(timelineId, invited.id, stranger.token)).toMatchObject({ status: 404, json: { error: "Timeline not found" } });
    for (const forged of [elsewhere.id, 999999999, "abc", "-1", "1e3"]) {
      expect(await cancel(timelineId, forged, owner.token)).toMatchObject({ status: 404, json: { error: "Invitation not found" } });
    }
    expect(await pendingCount(timelineId)).toBe(1);
    expect(await pendingCount(other.timelineId)).toBe(1);

    expect(await cancel(timelineId, invited.id, owner.token)).toMatchObject({ status: 200, json: { success: true } });
    expect(await cancel(timelineId, invited.id, owner.token)).toMatchObject({ status: 404 });
    expect((await shares(timelineId, owner.token)).some((s: { pending?: boolean }) => s.pending)).toBe(false);
    await verify(sam.email);
    expect((await call("GET", `/api/timelines/${timelineId}`, { token: sam.token })).status).toBe(404);
  });

  it("resetting or turning off the link drops the invitations still waiting", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const invite = () => share(timelineId, owner.token, { userEmail: uniqueEmail("later"), invite: true });
    expect((await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "viewer" } })).status).toBe(200);
    await invite();
    await invite();
    expect(await pendingCount(timelineId)).toBe(2);
    expect((await call("POST", `/api/timelines/${timelineId}/share/reset`, { token: owner.token })).status).toBe(200);
    expect(await pendingCount(timelineId)).toBe(0);

    await invite();
    expect(await pendingCount(timelineId)).toBe(1);
    expect((await call("DELETE", `/api/timelines/${timelineId}/share`, { token: owner.token })).status).toBe(200);
    expect(await pendingCount(timelineId)).toBe(0);
  });

  it("an owner who loses Premium loses the invitations still waiting; a verified address then gets nothing", async () => {
    const admin = await signInAdmin();
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const sam = await squatter();
    await share(timelineId, owner.token, { userEmail: sam.email, accessLevel: "viewer" });
    expect(await pendingCount(timelineId)).toBe(1);
    const removed = await call("POST", `/api/admin/users/${owner.user.id}/premium`, { token: admin.token, body: { premium: false } });
    expect(removed.status).toBe(200);
    expect(await pendingCount(timelineId)).toBe(0);

    const second = await premiumOwnerWithTimeline();
    const ivy = await squatter();
    await share(second.timelineId, second.owner.token, { userEmail: ivy.email, accessLevel: "viewer" });
    expect((await call("POST", "/api/subscription/downgrade", { token: second.owner.token })).status).toBe(200);
    expect(await pendingCount(second.timelineId)).toBe(0);

    // A plan that simply ran out: the invitation is not taken up at verification.
    const third = await premiumOwnerWithTimeline();
    const una = await squatter();
    await share(third.timelineId, third.owner.token, { userEmail: una.email, accessLevel: "viewer" });
    await env.DB.prepare("UPDATE users SET subscription_end_date = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), third.owner.user.id)
      .run();
    await verify(una.email);
    expect((await call("GET", `/api/timelines/${third.timelineId}`, { token: una.token })).status).toBe(404);
  });
});

describe("invitation mail", () => {
  it("reaches an address about one timeline at most once a day; a second share keeps the invitation and the link", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Once a day");
    const email = uniqueEmail("daily");
    const first = await share(timelineId, owner.token, { userEmail: email, accessLevel: "viewer", invite: true });
    expect(first.status).toBe(201);
    const [mail] = await invitationMails(email);
    const token = new URL(mail.text.match(/http:\/\/storyweave\.test\/auth\/register\?\S+/)![0]).searchParams.get("invite")!;

    for (let i = 0; i < 3; i++) {
      const again = await share(timelineId, owner.token, { userEmail: email, accessLevel: "collaborator", invite: true });
      // The same answer as the first: the owner learns nothing about the mail.
      expect(again).toMatchObject({ status: 201, json: { id: first.json.id, invited: true, pending: true, accessLevel: "collaborator" } });
    }
    expect(await invitationMails(email)).toHaveLength(1);
    expect(await previewInvitation(createDb(env.DB), token)).toMatchObject({ email, timelineTitle: "Once a day" });
    expect(await shares(timelineId, owner.token)).toEqual([expect.objectContaining({ pending: true, accessLevel: "collaborator" })]);

    // An unverified account's address is held to the same day.
    const sam = await squatter();
    await share(timelineId, owner.token, { userEmail: sam.email, accessLevel: "viewer" });
    await share(timelineId, owner.token, { userEmail: sam.email, accessLevel: "viewer" });
    expect(await invitationMails(sam.email)).toHaveLength(1);

    // A verified writer is mailed when first shared with; sharing again (another level) mails nothing.
    const fern = await registerUser({ name: "Fern Friend" });
    await markVerified(fern.email);
    for (const accessLevel of ["viewer", "collaborator", "viewer"]) {
      expect((await share(timelineId, owner.token, { userEmail: fern.email, accessLevel })).status).toBe(201);
    }
    expect((await mailTo(fern.email)).messages.filter((m) => m.subject.includes("shared"))).toHaveLength(1);

    // A day later the owner may remind them: a new link, mailed.
    await env.DB.prepare("UPDATE invitations SET mailed_at = ? WHERE timeline_id = ?")
      .bind(new Date(Date.now() - 25 * 3600_000).toISOString(), timelineId)
      .run();
    await share(timelineId, owner.token, { userEmail: email, accessLevel: "collaborator", invite: true });
    expect(await invitationMails(email)).toHaveLength(2);
    expect(await previewInvitation(createDb(env.DB), token)).toBeNull();
  });
});
