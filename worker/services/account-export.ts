import { and, asc, desc, eq, isNull } from "drizzle-orm";
import { Zip, ZipDeflate, ZipPassThrough, strToU8 } from "fflate";
import type { Db } from "../../db/client";
import {
  aiUsage,
  comments,
  events as eventRows,
  files,
  ideas,
  oauthAccounts,
  subscriptionHistory,
  type Timeline,
  timelineShares,
  type User,
  timelines,
} from "../../db/schema";
import { exportSlug } from "../../db/domain/timeline-transfer";
import { accessOf, callerShare } from "./access";
import { listEntitiesForTimeline } from "./entities";
import { listEventsForTimeline } from "./events";
import { effectiveTier } from "./plans";
import { listChapterRows } from "./chapters";
import { listPlotlinesOf } from "./plotlines";
import { renderTextExport, toTimelineDocument } from "./transfer";
import { toPublicUser } from "./users";

// GET /api/account/export: everything the writer owns as one zip, streamed (attachments can be far
// larger than a Worker's memory): `account.json`, then per owned timeline its JSON and Markdown export
// and its attachments' bytes under `timelines/<title>/`.

/** The profile, plan and AI use as account.json holds them: never the password hash, tokens or Stripe ids. */
async function accountSummary(db: Db, user: User) {
  const [methods, plans, uses, savedIdeas, written] = await Promise.all([
    db
      .select({ provider: oauthAccounts.provider, linkedAt: oauthAccounts.createdAt })
      .from(oauthAccounts)
      .where(eq(oauthAccounts.userId, user.id)),
    db
      .select({
        tier: subscriptionHistory.tier,
        startDate: subscriptionHistory.startDate,
        endDate: subscriptionHistory.endDate,
        paymentAmount: subscriptionHistory.paymentAmount,
        paymentMethod: subscriptionHistory.paymentMethod,
        status: subscriptionHistory.status,
      })
      .from(subscriptionHistory)
      .where(eq(subscriptionHistory.userId, user.id))
      .orderBy(asc(subscriptionHistory.id)),
    db
      .select({ tool: aiUsage.tool, createdAt: aiUsage.createdAt })
      .from(aiUsage)
      .where(eq(aiUsage.userId, user.id))
      .orderBy(asc(aiUsage.id)),
    db
      .select({ prompt: ideas.prompt, content: ideas.content, createdAt: ideas.createdAt })
      .from(ideas)
      .where(eq(ideas.userId, user.id))
      .orderBy(asc(ideas.id)),
    // Every comment the writer made, in anyone's timeline: their words are theirs to take along.
    db
      .select({
        comment: comments,
        eventTitle: eventRows.title,
        timeline: timelines,
        shareLevel: timelineShares.accessLevel,
      })
      .from(comments)
      .innerJoin(eventRows, eq(eventRows.id, comments.eventId))
      .innerJoin(timelines, eq(timelines.id, eventRows.timelineId))
      .leftJoin(timelineShares, callerShare(user))
      .where(eq(comments.authorId, user.id))
      .orderBy(asc(comments.id)),
  ]);
  // The download is no way around the end of access: where the writer can no longer read the timeline (removed,
  // its link reset, the timeline deleted), its title, the scene's and the quoted text stay out. A link's code is
  // not remembered, so only ownership or a share (joining through the link stores one) counts here.
  const readable = (c: (typeof written)[number]) => accessOf(c.timeline, user, c.shareLevel) !== "none";
  return {
    exportedAt: new Date().toISOString(),
    profile: toPublicUser(user),
    signInMethods: { password: Boolean(user.hashedPassword), providers: methods },
    plan: { tier: effectiveTier(user), endDate: user.subscriptionEndDate, history: plans },
    aiUsage: { total: uses.length, requests: uses },
    ideas: savedIdeas,
    comments: written.map((c) => ({
      id: c.comment.id,
      timelineId: c.timeline.id,
      timelineTitle: readable(c) ? c.timeline.title : null,
      eventId: c.comment.eventId,
      eventTitle: readable(c) ? c.eventTitle : null,
      threadId: c.comment.threadId,
      body: c.comment.body,
      quote: readable(c) ? c.comment.quote : null,
      resolved: c.comment.resolved,
      createdAt: c.comment.createdAt,
      updatedAt: c.comment.updatedAt,
    })),
  };
}

/** A name that is one path segment in any unzip tool: no separators, control characters or dot-only names. */
function zipSegment(name: string) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
  const clean = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, "_").trim();
  return /^\.*$/.test(clean) ? "_" : clean;
}

/** One folder per owned timeline, named after its title (a second timeline of the same title gets `-2`). */
function folderNames(owned: Pick<Timeline, "id" | "title">[]) {
  const used = new Set<string>();
  return new Map(
    owned.map((t) => {
      const base = exportSlug(t.title);
      let name = base;
      for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
      used.add(name);
      return [t.id, name] as const;
    }),
  );
}

export function accountExportFilename(user: Pick<User, "id">) {
  return `storyweave-data-${user.id}-${new Date().toISOString().slice(0, 10)}.zip`;
}

/** The zip as a stream: the writer's download starts at once and no attachment is held whole in memory. */
export function exportAccount(db: Db, bucket: R2Bucket, user: User): ReadableStream<Uint8Array> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const pending: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else pending.push(chunk);
  });
  // fflate hands its output to the callback synchronously; it is written out (with backpressure) between pushes.
  const flush = async () => {
    if (failure) throw failure;
    for (const chunk of pending.splice(0)) await writer.write(chunk);
  };
  const addText = async (path: string, text: string) => {
    const file = new ZipDeflate(path, { level: 6 });
    zip.add(file);
    file.push(strToU8(text), true);
    await flush();
  };

  (async () => {
    await addText("account.json", `${JSON.stringify(await accountSummary(db, user), null, 2)}\n`);
    const owned = await db
      .select()
      .from(timelines)
      .where(and(eq(timelines.userId, user.id), isNull(timelines.deletedAt)))
      .orderBy(desc(timelines.createdAt));
    const folders = folderNames(owned);
    for (const timeline of owned) {
      const folder = `timelines/${folders.get(timeline.id)}`;
      const [events, entities, chapters, plotlines] = await Promise.all([
        listEventsForTimeline(db, timeline.id),
        listEntitiesForTimeline(db, timeline.id),
        listChapterRows(db, timeline.id),
        listPlotlinesOf(db, timeline.id),
      ]);
      const doc = toTimelineDocument(timeline, events, entities, chapters, plotlines);
      const slug = exportSlug(timeline.title);
      await addText(`${folder}/${slug}.json`, renderTextExport(doc, "json"));
      await addText(`${folder}/${slug}.md`, renderTextExport(doc, "md"));
      const attached = await db
        .select({ id: files.id, filename: files.filename, r2Key: files.r2Key })
        .from(files)
        .innerJoin(eventRows, eq(eventRows.id, files.eventId))
        .where(and(eq(files.timelineId, timeline.id), isNull(eventRows.deletedAt)))
        .orderBy(asc(files.id));
      for (const file of attached) {
        const object = await bucket.get(file.r2Key);
        if (!object) continue;
        // Already compressed (images, PDFs) or small: stored as they are.
        const entry = new ZipPassThrough(`${folder}/attachments/${file.id}-${zipSegment(file.filename)}`);
        zip.add(entry);
        const reader = object.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          entry.push(value);
          await flush();
        }
        entry.push(new Uint8Array(0), true);
        await flush();
      }
    }
    zip.end();
    await flush();
    await writer.close();
  })().catch(async (error) => {
    console.error("[account] export failed:", String(error));
    await writer.abort(error).catch(() => {});
  });
  return readable;
}
