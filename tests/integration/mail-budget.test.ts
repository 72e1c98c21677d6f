import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type * as Y from "yjs";
import { DocFields } from "../../db/domain/rich-text";
import { suggestionId } from "../../db/domain/suggestions";
import { RATE_RULES } from "../../worker/services/rate-limits";
import { openDoc, setupSharedScene, waitUntil } from "./doc-helpers";
import { call, capturedMail, createEvent, markVerified, premiumOwnerWithTimeline, registerUser } from "./helpers";

// Notification emails are a budget per recipient, suggestion notices fold per writer and scene, only verified
// accounts cause mail, and the inbox never drops unread news. Mail from the API is read back from the fake mail
// server; mail from a scene's doc (a Durable Object) from the local mailer's log.

const mailEnv = { MAILER: "http", MAIL_API_URL: `${env.FAKE_MAIL_URL}/send`, MAIL_API_KEY: "fake-mail-key" };
type Mail = { to: string; subject: string; text: string };
const mailTo = async (email: string): Promise<Mail[]> =>
  ((await (await fetch(`${env.FAKE_MAIL_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as { messages: Mail[] }).messages;
type Inbox = { notifications: Array<{ id: number; type: string; title: string; read: boolean }>; unread: number };
const inbox = async (token: string) => (await call("GET", "/api/notifications", { token })).json as Inbox;
const post = (token: string, eventId: number, body: string) =>
  call("POST", `/api/events/${eventId}/comments`, { token, body: { body }, env: mailEnv });
const firstText = (doc: Y.Doc) => (doc.getXmlFragment(DocFields.content).get(0) as Y.XmlElement).get(0) as Y.XmlText;

/** A premium owner with one scene, and `n` fresh writers who joined by a viewer link. */
async function ownerAndLinkReaders(n: number, verified: boolean) {
  const { owner, timelineId } = await premiumOwnerWithTimeline("Budget story");
  const event = await createEvent(owner.token, timelineId, { title: "The storm" });
  const { shareCode } = (await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "viewer" } })).json;
  const readers = [];
  for (let i = 0; i < n; i++) {
    const r = await registerUser({ name: `Reader ${i}` });
    if (verified) await markVerified(r.email);
    expect((await call("POST", `/api/timelines/shared/${shareCode}/join`, { token: r.token })).status).toBe(200);
    readers.push(r);
  }
  return { owner, timelineId, eventId: event.id as number, readers };
}

describe("suggestion notices", () => {
  it("20 saves of a collaborator's suggestions in a row are one notice and at most one mail to the owner", async () => {
    const { owner, timeline, event, collab } = await setupSharedScene("The storm breaks over the harbour.");
    await markVerified(collab.email);
    const a = await openDoc(timeline.id, event.id, collab.token);
    const notices = async () => (await inbox(owner.token)).notifications.filter((n) => n.type === "suggestion");
    const mail = await capturedMail(async () => {
      for (let i = 0; i < 20; i++) {
        firstText(a.doc).insert(0, `${i} `, { insertion: { id: suggestionId(collab.user.id, "Mara") } });
        expect("version" in (await a.save())).toBe(true);
        // Under the doc's updates-per-second cap, as a writer saving every second or two is.
        await new Promise((r) => setTimeout(r, 80));
      }
      await waitUntil(async () => (await notices()).length > 0, "the owner's notification", 8000);
      await new Promise((r) => setTimeout(r, 500));
    });
    expect(await notices()).toHaveLength(1);
    expect(mail.split("\n").filter((line) => line.includes(`to=${owner.email} subject="Mara suggested edits"`))).toHaveLength(1);
    a.close();
  });
});

describe("notification emails", () => {
  it("many mentions from several fresh accounts: the recipient's mail stays within the hourly budget, the inbox keeps them all", async () => {
    const { owner, eventId, readers } = await ownerAndLinkReaders(4, true);
    await markVerified(owner.email);
    for (const r of readers) for (let i = 0; i < 5; i++) expect((await post(r.token, eventId, `@Olive Owner look ${i}`)).status).toBe(201);
    const mentionMails = (await mailTo(owner.email)).filter((m) => m.subject.endsWith("mentioned you"));
    expect(mentionMails).toHaveLength(RATE_RULES.notifyMails.limit);
    // The last one says where the rest are.
    expect(mentionMails.at(-1)?.text).toContain(
      "More notifications this hour will wait in your inbox: http://storyweave.test/notifications",
    );
    expect(mentionMails[0].text).not.toContain("wait in your inbox");
    const list = await inbox(owner.token);
    expect(list.notifications.filter((n) => n.type === "mention")).toHaveLength(20);
    expect(list.unread).toBe(20);
    // The budget is the recipient's: another writer mentioned by the same accounts still gets their mail.
    const {
      owner: other,
      eventId: otherScene,
      readers: [r],
    } = await ownerAndLinkReaders(1, true);
    expect((await post(r.token, otherScene, "@Olive Owner here")).status).toBe(201);
    expect((await mailTo(other.email)).filter((m) => m.subject.endsWith("mentioned you"))).toHaveLength(1);
  });

  it("an unverified account's mentions and suggestions reach the inbox but mail nobody", async () => {
    const { owner, eventId, readers } = await ownerAndLinkReaders(1, false);
    expect((await post(readers[0].token, eventId, "@Olive Owner hello")).status).toBe(201);
    expect((await inbox(owner.token)).notifications).toEqual([expect.objectContaining({ type: "mention", read: false })]);
    expect(await mailTo(owner.email)).toEqual([]);

    const scene = await setupSharedScene("Mara runs for the boats.");
    const a = await openDoc(scene.timeline.id, scene.event.id, scene.collab.token);
    const mail = await capturedMail(async () => {
      firstText(a.doc).insert(0, "Then ", { insertion: { id: suggestionId(scene.collab.user.id, "Mara") } });
      expect("version" in (await a.save())).toBe(true);
      await waitUntil(async () => (await inbox(scene.owner.token)).unread > 0, "the owner's notification", 8000);
      await new Promise((r) => setTimeout(r, 500));
    });
    expect((await inbox(scene.owner.token)).notifications).toEqual([expect.objectContaining({ type: "suggestion", read: false })]);
    expect(mail).not.toContain(`to=${scene.owner.email}`);
    a.close();
  });
});

describe("the inbox", () => {
  it("keeps unread notifications however many new mentions arrive; read ones are trimmed first", async () => {
    const { owner, eventId, readers } = await ownerAndLinkReaders(2, false);
    const [first, flood] = readers;
    expect((await post(first.token, eventId, "@Olive Owner the real news")).status).toBe(201);
    const real = (await inbox(owner.token)).notifications[0];
    for (let i = 0; i < 7; i++) expect((await post(flood.token, eventId, `@Olive Owner spam ${i}`)).status).toBe(201);
    const list = await inbox(owner.token);
    expect(list.unread).toBe(8);
    expect(list.notifications.map((n) => n.id)).toContain(real.id);

    // Read ones are the ones that go: past 20 read, the oldest read leave, the unread stay.
    await call("POST", "/api/notifications/read", { token: owner.token, body: {} });
    for (let i = 0; i < 14; i++) await post(flood.token, eventId, `@Olive Owner more ${i}`);
    const after = await inbox(owner.token);
    expect(after.unread).toBe(14);
    expect(after.notifications.filter((n) => n.read)).toHaveLength(8);
    expect(after.notifications.map((n) => n.id)).toContain(real.id);
    for (let i = 0; i < 20; i++) await post(flood.token, eventId, `@Olive Owner again ${i}`);
    await call("POST", "/api/notifications/read", { token: owner.token, body: {} });
    await post(first.token, eventId, "@Olive Owner last");
    const trimmed = await inbox(owner.token);
    expect(trimmed.unread).toBe(1);
    expect(trimmed.notifications.filter((n) => n.read)).toHaveLength(20);
    expect(trimmed.notifications.map((n) => n.id)).not.toContain(real.id);
  });
});
