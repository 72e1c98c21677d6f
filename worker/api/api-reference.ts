import type { z } from "zod";
import { type Details, type Query, bodies, details } from "./api-reference-inputs";

export type { Query };

/**
 * The API reference's rows: one per route, as a table that reads like the router. Columns, split on `|`:
 *   METHOD path | auth (none, session, admin, stripe) | success status | failures beyond the implied ones | summary | what it answers
 * Implied failures: 400 and 413 with a body, 401 (and 403 for admin) with auth, 404 with a path id.
 * Request bodies, query parameters and the rest are in api-reference-inputs.ts (`bodies`, `details`).
 */
const table = `
Auth
POST /api/auth/register | none | 201 | 409 429 | Create an account and sign in | \`{user, token}\`; sets the session cookie
POST /api/auth/login | none | 200 | 401 429 | Sign in with email and password | \`{user, token}\`; sets the session cookie
POST /api/auth/logout | none | 200 | | End this session | \`{success: true}\`; clears the cookie
GET /api/auth/me | session | 200 | | The signed-in writer | The public user
GET /api/auth/methods | session | 200 | | The writer's sign-in methods (password, GitHub, Google) | The methods and whether each may be removed
POST /api/auth/forgot-password | none | 200 | 429 | Email a password reset link | The same answer whether or not the address has an account
POST /api/auth/verify-reset-token | none | 200 | | Whether a reset token is still valid | \`{valid}\`
POST /api/auth/verify-email | none | 200 | | Confirm an email address with its token | \`{user}\`
POST /api/auth/resend-verification | session | 200 | 429 | Send the verification email again | \`{success, message}\`
POST /api/auth/reset-password | none | 200 | | Set a new password with a reset token (other sessions end) | \`{success, token?}\`; signs in
OAuth
GET /api/auth/oauth/{provider} | none | 302 | | Start signing in (or connecting, \`intent=link\`) with GitHub or Google | Redirect to the provider
GET /api/auth/oauth/{provider}/callback | none | 302 | | The provider's return | Redirect into the app, or to /auth/login?oauthError=<code>
DELETE /api/auth/oauth/{provider} | session | 200 | 403 | Disconnect a provider from the account | The remaining sign-in methods
Timelines
GET /api/timelines | session | 200 | | The writer's timelines (owned and shared) | Timeline list (weak ETag, 304 on If-None-Match)
POST /api/timelines | session | 201 | 403 | Create a timeline | The timeline
GET /api/timelines/{id} | session | 200 | | One timeline | The timeline with the caller's access (weak ETag)
PATCH /api/timelines/{id} | session | 200 | 400 403 | Rename or describe a timeline, set its word target, its \`deadline\` (ISO date) and \`writingDays\` (ISO weekdays 1..7), or let viewers comment (\`viewersCanComment\`) (owner) | The timeline
DELETE /api/timelines/{id} | session | 200 | 403 | Move a timeline and everything in it to Trash for 30 days (owner) | \`{success: true}\`
GET /api/timelines/{id}/events | session | 200 | | The timeline's events | Event list (weak ETag from the events revision, 304 on If-None-Match)
POST /api/timelines/{id}/events | session | 201 | 403 409 429 | Add an event | The event
POST /api/timelines/{id}/events/batch | session | 201 | 400 403 409 429 | Add up to 100 events, in the list's order, each as the single create would (the outbox's queued creates): each item's \`key\` is its Idempotency-Key, an item whose key was used before is answered with its first event and not made again; all or nothing | \`{events: [...]}\` in the order sent
Sharing
GET /api/timelines/shared/{shareCode} | session | 200 | | Open a timeline through its share link (read only, no join) | The timeline and the link's level
POST /api/timelines/shared/{shareCode}/join | session | 200 | | Join a timeline through its share link | The timeline joined
POST /api/timelines/{id}/share | session | 200 | 403 | Turn on the share link (owner) | The link: code and level
GET /api/timelines/{id}/share | session | 200 | 403 | The share link's state (owner) | The link, or none
POST /api/timelines/{id}/share/reset | session | 200 | 403 | Replace the link's code; the old link stops working | The new link
DELETE /api/timelines/{id}/share | session | 200 | 403 | Turn off the share link | \`{success: true}\`
GET /api/timelines/{id}/shares | session | 200 | 403 | People with access, then invitations still waiting for a verified address (owner) | Share list; a pending invitation has \`pending: true\`, its \`id\` is the invitation's and \`sharedWithUserId\` is null when no account has the address
POST /api/timelines/{id}/share-with-user | session | 201 | 403 404 429 | Share with a writer by email; an unverified address (\`invite: true\` for one with no account) gets a pending invitation, granted when it is verified; the address is mailed at most once a day per timeline | The share, or the pending invitation with \`{invited: true, email}\`
DELETE /api/timelines/{id}/shares/{userId} | session | 200 | 403 | Remove a person's access | \`{success: true}\`
DELETE /api/timelines/{id}/invitations/{invitationId} | session | 200 | 403 | Take back a pending invitation (owner) | \`{success: true}\`
GET /api/timelines/{id}/people | session | 200 | | Who can read the timeline (the comment box's \`@\` offers them) | \`[{id, name}]\`
Events
PATCH /api/events/{id} | session | 200 | 403 409 429 | Edit an event (\`baseVersion\` guards against lost updates); \`{forReaders}\` alone marks it for readers or not | The event; 409 carries \`current\`
DELETE /api/events/{id} | session | 200 | 403 | Move an event to Trash for 30 days (owner) | \`{success: true}\`
Trash
GET /api/trash | session | 200 | | What the writer may restore, newest first (purged after 30 days) | \`[{kind, id, title, timelineTitle, deletedAt, deletedBy: {id, name}|null}]\`
POST /api/trash/{kind}/{id}/restore | session | 200 | 400 403 429 | Restore a trashed event or timeline (\`kind\`: event or timeline) | The event or the timeline
GET /api/events/{id}/versions | session | 200 | | An event's saved versions | Version list
GET /api/event-versions/{id} | session | 200 | | One saved version | The version
PATCH /api/event-versions/{id} | session | 200 | 400 403 | Name a saved version (\`{name}\`, at most 100 characters; empty or null clears it) | \`{id, name}\`
POST /api/event-versions/{id}/restore | session | 200 | 403 | Restore a saved version | The event
Attachments
POST /api/events/{id}/attachments | session | 201 | 400 403 413 415 | Attach a file (multipart field \`file\`, at most 10 MB) | The attachment
GET /api/attachments/{id} | session | 200 | | Download an attachment | The file's bytes with its own content type
DELETE /api/attachments/{id} | session | 200 | 403 | Remove an attachment | \`{success: true}\`
Codex
GET /api/timelines/{id}/entities | session | 200 | | The timeline's codex (characters, places, things) | Entry list
POST /api/timelines/{id}/entities | session | 201 | 403 409 | Add a codex entry | The entry
POST /api/timelines/{id}/codex/link-mentions | session | 200 | 403 | Link all mentions: every codex entry linked to every scene that names it (name or alias, whole words, any case; edit access) | \`{linked}\`
PATCH /api/entities/{id} | session | 200 | 403 409 | Edit a codex entry | The entry
DELETE /api/entities/{id} | session | 200 | 403 | Delete a codex entry | \`{success: true}\`
GET /api/timelines/{id}/progressions | session | 200 | 404 | Every progression of the timeline's codex at its scenes: the lanes and the Map read each entry as of a scene (read access) | \`[{id, entityId, eventId, text, createdAt}]\`
GET /api/entities/{id}/progressions | session | 200 | 404 | An entry's progressions: what changes about it from a scene on (read access) | \`[{id, entityId, eventId, text, createdAt}]\`
POST /api/entities/{id}/progressions | session | 201 | 400 403 404 429 | Record what changes about an entry from a scene of its timeline on (edit access) | The progression
PATCH /api/progressions/{id} | session | 200 | 400 403 404 429 | Change a progression's text or scene | The progression
DELETE /api/progressions/{id} | session | 200 | 403 404 429 | Delete a progression | \`{success: true}\`
GET /api/timelines/{id}/relationships | session | 200 | 404 | The relationships between the timeline's codex entries (read access) | \`[{id, timelineId, fromId, toId, label, sinceEventId, createdAt}]\`
POST /api/timelines/{id}/relationships | session | 201 | 400 403 404 429 | Relate two codex entries of the timeline, from a scene on or always (edit access) | The relationship
PATCH /api/relationships/{id} | session | 200 | 400 403 404 429 | Change a relationship's entries, label or scene | The relationship
DELETE /api/relationships/{id} | session | 200 | 403 404 429 | Delete a relationship | \`{success: true}\`
Series
GET /api/series | session | 200 | | The caller's own series, newest first, each with its books | Series list
POST /api/series | session | 201 | 400 404 429 | Group own timelines (\`timelineIds\`, book 1 first) into a series sharing one codex; entries merge by name | \`{id, title, timelines: [{id, title, position, wordCount}]}\`
GET /api/series/{id} | session | 200 | 404 | The series and the books of it the caller can read, in order, with word counts | As the POST
PATCH /api/series/{id} | session | 200 | 400 403 429 | Rename the series or reorder its books (owner) | As the GET
POST /api/series/{id}/books | session | 200 | 400 403 404 429 | Add an own timeline as the last book; its codex merges by name (owner) | As the GET
DELETE /api/series/{id}/books/{timelineId} | session | 200 | 400 403 404 429 | Take a book out of the series; it keeps its own copies of the entries it uses (owner) | As the GET
Chapters
GET /api/timelines/{id}/chapters | session | 200 | | The timeline's chapters in order, each with its word count | Chapter list
POST /api/timelines/{id}/chapters | session | 201 | 400 403 409 429 | Add a chapter, last (\`eventIds\` move into it) | The chapter
POST /api/timelines/{id}/chapters/batch | session | 201 | 403 409 429 | Add up to 100 chapters, last, in the list's order (the outbox's queued creates): each item's \`key\` is its Idempotency-Key, an item whose key was used before is answered with its first chapter and not made again; all or nothing | \`{chapters: [...]}\` in the order sent
PATCH /api/chapters/{id} | session | 200 | 400 403 429 | Rename a chapter, set its target, or move it (its scenes move with it) | The chapter
DELETE /api/chapters/{id} | session | 200 | 403 429 | Delete a chapter (owner); its scenes stay, in no chapter | \`{success: true}\`
GET /api/timelines/{id}/progress | session | 200 | 400 429 | Words written per day (UTC, or \`?tz=\` an IANA zone) for the last 30 days, net, from versions; \`?by=writer\` adds each writer's | \`{wordCount, targetWords, days: [{date, words}], dailyGoal, streak, writers?, deadline, dailyQuota, today: {words}}\`
Templates
GET /api/templates | session | 200 | | The built-in beat sheets, then the caller's own templates (\`u-<n>\`) | \`[{id, name, description, builtIn, beats: [{title, description, at}]}]\`
POST /api/templates | session | 201 | 400 | Save a timeline's chapters and scene titles as the caller's own template | The template
DELETE /api/templates/{id} | session | 200 | 400 | Delete one of the caller's own templates | \`{success: true}\`
GET /api/timelines/{id}/structure | session | 200 | | The beat sheet overlaid on the story: each beat's place and the scene there | \`{templateId, basis, beats: [{title, description, at, eventId}]}\`
PUT /api/timelines/{id}/structure | session | 200 | 400 403 | Set or clear (\`null\`) the overlaid beat sheet | As the GET
Plotlines
GET /api/timelines/{id}/plotlines | session | 200 | | The timeline's plotlines in order | Plotline list
POST /api/timelines/{id}/plotlines | session | 201 | 400 403 | Add a plotline, last (\`color\` '#rrggbb', else the palette's next) | The plotline
PATCH /api/plotlines/{id} | session | 200 | 400 403 | Rename, recolor or move a plotline | The plotline
DELETE /api/plotlines/{id} | session | 200 | 403 | Delete a plotline (owner); its scenes stay and leave it | \`{success: true}\`
GET /api/timelines/{id}/calendar | session | 200 | | The timeline's calendar (Gregorian unless the owner set one) | The calendar
PUT /api/timelines/{id}/calendar | session | 200 | 400 403 409 429 | Set the calendar (owner); a structural change with dated scenes needs \`convert: true\` | The calendar, or 409 \`{message, changes}\`
Comments
GET /api/events/{id}/comments | session | 200 | | A scene's comments, oldest first (threads and their replies) | Comment list
POST /api/events/{id}/comments | session | 201 | 400 403 429 | Comment on a scene or its selected text (\`anchor\`), or reply (\`threadId\`); viewers when the owner allows | The comment
PATCH /api/comments/{id} | session | 200 | 400 403 429 | Edit your comment's body, or resolve or reopen it (edit access) | The comment
DELETE /api/comments/{id} | session | 200 | 403 | Delete a comment (its author or the owner); a thread's first comment takes its replies | \`{success: true}\`
GET /api/timelines/{id}/comments | session | 200 | 400 | The timeline's comment threads, newest thread first, each with \`eventTitle\`; \`?counts=1\`: open threads per scene | Comment list, or \`{counts: {eventId: n}}\`
Tasks
GET /api/events/{id}/tasks | session | 200 | | A scene's tasks, oldest first (read access) | \`[{id, text, done, assigneeId}]\`
POST /api/events/{id}/tasks | session | 201 | 400 403 429 | Add a task (edit access); the assignee must be able to edit the timeline and is notified | \`{id, text, done, assigneeId}\`
GET /api/events/{id}/task-panel | session | 200 | 403 | The scene editor's Tasks in one request: the tasks (oldest first) and whom they may be assigned to (edit access) | \`{tasks: [{id, text, done, assigneeId}], assignees: [{id, name}]}\`
GET /api/events/{id}/assignees | session | 200 | 403 | Whom the scene's tasks may be assigned to: the owner and the editors (edit access) | \`[{id, name}]\`
PATCH /api/tasks/{id} | session | 200 | 400 403 429 | Change a task's text, tick it done, or (re)assign it (edit access); a new assignee is notified | \`{id, text, done, assigneeId}\`
DELETE /api/tasks/{id} | session | 204 | 403 | Delete a task (edit access) | No content
GET /api/account/tasks | session | 200 | | The writer's open tasks across the timelines they can still read, newest first | \`[{id, text, done, assigneeId, eventId, eventTitle, timelineId, timelineTitle}]\`
Readers
POST /api/timelines/{id}/reader-links | session | 201 | 403 429 | Make a reader link with a label (owner): anyone holding it reads the book at /read/{code}, no account | \`{id, code, label, url, createdAt}\`
GET /api/timelines/{id}/reader-links | session | 200 | 403 | The timeline's reader links, newest first (owner), with where each reader stopped | \`[{id, code, label, url, createdAt, readers: [{name, eventId, at}]}]\`
DELETE /api/reader-links/{id} | session | 204 | 429 | End a reader link at once (owner); its code then reads as not found | Nothing
GET /api/read/{code} | none | 200 | 429 | The book for a reader link: chapters in order, scenes without planning, 'Not for readers' ones left out | \`{timeline: {title, author}, chapters: [{title, scenes: [{id, title, content}]}], reader: {name, eventId}|null}\`
GET /api/read/{code}/comments | none | 200 | | The calling reader's own comments (X-Reader-Token header or cookie) | \`[{id, eventId, body, quote, createdAt}]\`
POST /api/read/{code}/comments | none | 201 | 429 | Comment as a reader (\`name\` the first time: the answer's \`readerToken\` and a cookie then name the reader); \`anchor: {quote, prefix?, suffix?}\` is anchored on the quote's words in the scene (the words around it pick which of a repeated phrase); limited per link and per reader | The comment
POST /api/read/{code}/progress | none | 200 | 429 | Where the reader stopped (\`name\` the first time) | \`{eventId, at, readerToken?}\`
GET /api/events/{id}/doc-state | session | 200 | 429 | The scene's shared doc as one Yjs update (read access): read mode anchors comments on it | Yjs update (binary)
GET /api/timelines/{id}/activity | session | 200 | 400 429 | What changed, newest first: scenes added, edited, moved, deleted, restored and comments; paged with \`before\` (an item's \`cursor\`) | \`[{type, userId, userName, eventId, eventTitle, at, cursor}]\`
Mind map
GET /api/timelines/{id}/map | session | 200 | | The map: positions, free nodes, edges | The map
PUT /api/timelines/{id}/map/positions | session | 200 | 403 | Save node positions | \`{success: true}\`
POST /api/timelines/{id}/map/nodes | session | 201 | 403 | Add a free node | The node
PATCH /api/map-nodes/{id} | session | 200 | 403 | Edit a free node | The node
DELETE /api/map-nodes/{id} | session | 200 | 403 | Delete a free node and its edges | \`{success: true}\`
POST /api/timelines/{id}/map/edges | session | 201 | 403 409 | Connect two nodes | The edge
PATCH /api/map-edges/{id} | session | 200 | 403 | Label an edge | The edge
DELETE /api/map-edges/{id} | session | 200 | 403 | Delete an edge | \`{success: true}\`
Transfer
GET /api/timelines/{id}/export | session | 200 | 400 429 | Download a timeline as JSON, Markdown or Word | The file (attachment)
POST /api/timelines/import | session | 201 | 400 403 404 413 415 | Make a new timeline from a StoryWeave JSON, Markdown, CSV/TSV (UTF-8 or Windows-1252) or .xlsx/.ods file, or a book (Word .docx, .odt, Plottr .pltr, yWriter .yw7; up to 20 MB), sent as its bytes; \`?seriesId=\` adds it to a series (404 when not the caller's); \`?dryRun=1\` answers 200 with what it would create | The new timeline; a file of several books: a series, the books as \`timelines\`
POST /api/timelines/{id}/import | session | 200 | 400 403 413 415 | Add a file's events after the timeline's last one; its codex merges by name (case-insensitive) | \`{timeline, added: {events, entities}}\`
AI
GET /api/ai/usage | session | 200 | | This month's AI allowance and use | \`{used, limit, premium}\`
GET /api/ai/usage/daily | session | 200 | | Completed AI uses per day this month | Day list
POST /api/ai/stop | session | 204 | 429 | Stop generating (names a stream by its X-AI-Stream-Id) | Nothing
POST /api/ideas/generate | session | 200 | 429 502 503 | Story ideas from a prompt | \`{success, result, usage}\`
POST /api/writing/enhance | session | 200 | 429 502 503 | Rewrite a text by an instruction | \`{success, result, usage}\`
POST /api/writing/character | session | 200 | 429 502 503 | A character sketch | \`{success, result, usage}\`
POST /api/writing/transform | session | 200 | 403 429 502 503 | Transform a selection of a scene | \`{success, result, usage}\`
POST /api/story/suggest-plot | session | 200 | 403 429 502 503 | Suggest the next plot point of a timeline | \`{suggestion, text, usage}\`
POST /api/events/{id}/continue | session | 200 | 403 429 502 503 | Continue a scene's text | \`{success, result, usage}\`
GET /api/test/openai | admin | 200 | 429 | Test the OpenAI connection | \`{success, message}\`
Billing
POST /api/subscription/webhook | stripe | 200 | 400 503 | Stripe's events (signed with Stripe-Signature) | \`{received: true}\`
POST /api/subscription/create-checkout-session | session | 200 | 502 503 | Start a Premium checkout | \`{url, sessionId}\` of the checkout page
POST /api/subscription/upgrade | session | 200 | 502 503 | Confirm a paid checkout | \`{success, user}\`
POST /api/subscription/downgrade | session | 200 | 502 503 | Cancel Premium | \`{success, user}\`
Account
PATCH /api/account | session | 200 | 400 | Change the display name, the daily word goal (\`dailyGoalWords\`, null clears it) or how notifications are mailed (\`notifyEmail\`: instant, daily or off) | The public user, \`dailyGoalWords\` and \`notifyEmail\`
POST /api/account/password | session | 200 | 403 429 | Set or change the password (other sessions end) | \`{success, user}\`
DELETE /api/account | session | 200 | 403 429 | Delete the account and everything it owns | \`{success: true}\`; clears the cookie
GET /api/account/export | session | 200 | 429 | Download all of the writer's data | A zip of every timeline and file
GET /api/account/ai | session | 200 | | The writer's own AI model (bring your own model); never the key | \`{provider, baseUrl, model, keySet}\` (all null and \`keySet: false\` when none is set)
PUT /api/account/ai | session | 200 | 400 | Use the writer's own AI provider (\`openai\`, \`openai-compatible\` with its \`baseUrl\`, \`anthropic\`), model and key; the key is stored encrypted; a base URL must be a public http(s) server on its standard port. Their AI requests then use it and do not count against the free allowance | \`{provider, baseUrl, model, keySet: true}\`
DELETE /api/account/ai | session | 200 | | Stop using the writer's own model (back to the site's) | \`{provider: null, baseUrl: null, model: null, keySet: false}\`
POST /api/account/ai/test | session | 200 | 400 429 | 'Test connection': a tiny request to the saved provider | \`{success: true, result, ms}\` or \`{success: false, error}\` in the product's words
Notifications
GET /api/notifications | session | 200 | | The inbox (mentions, replies, shares, suggestions), newest first; every unread one (up to 500) and the last 20 read are kept | \`{notifications: [{id, type, title, message, relatedId, relatedType, read, createdAt}], unread}\`
POST /api/notifications/read | session | 200 | 400 | Mark notifications read (\`ids\`; all when absent); others' ids are ignored | \`{success: true}\`
Admin
GET /api/admin/users | admin | 200 | | All users | User list
GET /api/admin/ai-usage | admin | 200 | | Completed AI uses per day, last 30 days | Day list
POST /api/admin/users/{id}/premium | admin | 200 | | Grant or remove Premium | The user
GET /api/config/openai-status | admin | 200 | | Whether an OpenAI key is configured (never the key) | \`{configured, source, model}\`
POST /api/config/openai-key | admin | 200 | | Save the OpenAI key | \`{success, message, configured, source}\`
GET /api/config/stripe-status | admin | 200 | | Whether Stripe keys are configured (never the keys) | Status and mode
POST /api/config/stripe-keys | admin | 200 | | Save the Stripe keys | \`{success, message}\` and the status
Reference
GET /api/openapi.json | none | 200 | | This document (OpenAPI 3.1) | The OpenAPI document
GET /api/docs | none | 200 | | This reference as a readable page | HTML
`;

export type Method = "get" | "post" | "put" | "patch" | "delete";
export type Auth = "none" | "session" | "admin" | "stripe";

export type Operation = Details & {
  method: Method;
  /** OpenAPI form: `/api/timelines/{id}`. */
  path: string;
  tag: string;
  summary: string;
  auth: Auth;
  body?: z.ZodType;
  ok: number;
  returns: string;
  /** Every failure status: the implied ones and the row's own. */
  errors: number[];
};

function parse(): Operation[] {
  const ops: Operation[] = [];
  let tag = "";
  for (const line of table.trim().split("\n")) {
    if (!line.includes("|")) {
      tag = line.trim();
      continue;
    }
    const [route, auth, ok, extra, summary, returns] = line.split("|").map((cell) => cell.trim());
    const [method, path] = route.split(" ");
    const body = bodies[route];
    const errors = new Set(extra ? extra.split(" ").map(Number) : []);
    if (body) errors.add(400).add(413);
    if (auth === "session" || auth === "admin") errors.add(401);
    if (auth === "admin") errors.add(403);
    if (/\{(id|shareCode|userId)\}/.test(path)) errors.add(404);
    ops.push({
      method: method.toLowerCase() as Method,
      path,
      tag,
      auth: auth as Auth,
      ok: Number(ok),
      summary,
      returns,
      body,
      errors: [...errors].sort((a, b) => a - b),
      ...details[route],
    });
  }
  return ops;
}

export const operations: readonly Operation[] = parse();

/** Keys of `bodies` or `details` that name no row (a typo would silently drop a body from the document). */
export const orphanKeys = [...Object.keys(bodies), ...Object.keys(details)].filter(
  (key) => !operations.some((op) => `${op.method.toUpperCase()} ${op.path}` === key),
);
