import { z } from "zod";
import { entityKinds, entityLimits, limits, messages } from "./rules";
import { hexColor } from "./validation-map";
import { chapterIdField, targetWords } from "./validation-chapters";
import { templateIdField } from "./validation-templates";
import { plotlineIdsField } from "./validation-plotlines";
import { viewersCanCommentField } from "./validation-comments";
import { afterField, lifespanFields, lifespanMessages } from "./validation-lifespans";
import { isLifespanOrdered } from "./lifespans";
import { sceneStatusMessage, sceneStatuses } from "./task-rules";

// The zod-free rules and texts live in ./rules (screens import them without pulling zod in).
export * from "./rules";

const email = z
  .string({ error: messages.email })
  .trim()
  .max(limits.email, `Email must be at most ${limits.email} characters`)
  .pipe(z.email({ error: messages.email }));

const password = z
  .string({ error: messages.password })
  .min(limits.passwordMin, messages.password)
  .max(limits.passwordMax, `Password must be at most ${limits.passwordMax} characters`);

export const LoginSchema = z.object({ email, password });
export type Login = z.infer<typeof LoginSchema>;

export const RegisterSchema = z.object({
  name: z.string({ error: messages.name }).trim().min(2, messages.name).max(limits.name, `Name must be at most ${limits.name} characters`),
  email,
  password,
});
export type Register = z.infer<typeof RegisterSchema>;

export const ForgotPasswordSchema = z.object({ email });

export const ResetPasswordSchema = z.object({
  token: z.string({ error: messages.missingToken }).trim().min(1, messages.missingToken).max(200, messages.manualToken),
  password,
});

/** The reset form: both fields at least 6 and equal. */
export const ResetPasswordFormSchema = z
  .object({
    password,
    confirmPassword: z.string({ error: messages.password }).min(limits.passwordMin, messages.password),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: messages.passwordsMatch,
    path: ["confirmPassword"],
  });

export const ManualTokenSchema = z.object({
  token: z.string({ error: messages.manualToken }).trim().min(limits.resetTokenMin, messages.manualToken),
});

/** First message of a failed parse, in the product's wording. */
export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Invalid input";
}

/** Field → first message, for forms. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

// Timelines and events.
const optionalDescription = z
  .string()
  .trim()
  .max(limits.timelineDescription, `Description must be at most ${limits.timelineDescription} characters`)
  .nullish()
  .transform((v) => (v ? v : null));

export const timelineTitle = z
  .string({ error: messages.timelineTitle })
  .trim()
  .min(1, messages.timelineTitle)
  .max(limits.timelineTitle, `Title must be at most ${limits.timelineTitle} characters`);

export const CreateTimelineSchema = z.object({
  title: timelineTitle,
  description: optionalDescription,
  createdAt: z.string().max(40).optional(),
  /** Start from a structure: one placeholder scene per beat (or the scenes and chapters of an own template). */
  templateId: templateIdField.nullish(),
});
export type CreateTimeline = z.infer<typeof CreateTimelineSchema>;

/** The name on the title pages and the EPUB's creator; empty or null: the owner's name. */
export const bylineField = z
  .string({ error: "Byline must be text" })
  .trim()
  .max(limits.byline, `Byline must be at most ${limits.byline} characters`)
  .nullable()
  .transform((v) => v || null);

/** A deadline: a real calendar date, 'YYYY-MM-DD' (null clears it). */
export const DEADLINE_MESSAGE = "Deadline must be a real date, as YYYY-MM-DD";
const deadlineField = z
  .string({ error: DEADLINE_MESSAGE })
  .regex(/^\d{4}-\d{2}-\d{2}$/, DEADLINE_MESSAGE)
  .refine((v) => {
    const [y, m, d] = v.split("-").map(Number);
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }, DEADLINE_MESSAGE)
  .nullable();
export const WRITING_DAYS_MESSAGE = "Writing days must be distinct weekday numbers from 1 (Monday) to 7 (Sunday), at least one";
const writingDaysField = z
  .array(z.number({ error: WRITING_DAYS_MESSAGE }).int(WRITING_DAYS_MESSAGE).min(1, WRITING_DAYS_MESSAGE).max(7, WRITING_DAYS_MESSAGE), {
    error: WRITING_DAYS_MESSAGE,
  })
  .min(1, WRITING_DAYS_MESSAGE)
  .max(7, WRITING_DAYS_MESSAGE)
  .refine((days) => new Set(days).size === days.length, WRITING_DAYS_MESSAGE);

export const UpdateTimelineSchema = z.object({
  deadline: deadlineField.optional(),
  writingDays: writingDaysField.optional(),
  title: timelineTitle.optional(),
  byline: bylineField.optional(),
  description: optionalDescription.optional(),
  targetWords: targetWords.optional(),
  viewersCanComment: viewersCanCommentField.optional(),
});
export type UpdateTimeline = z.infer<typeof UpdateTimelineSchema>;

/** An event's title and content, wherever they are written (the API, the shared doc, an import). */
export const EventTitleSchema = z
  .string({ error: messages.eventFields })
  .trim()
  .min(1, messages.eventFields)
  .max(limits.eventTitle, `Title must be at most ${limits.eventTitle} characters`);
export const EventContentSchema = z
  .string({ error: messages.eventFields })
  .trim()
  .min(1, messages.eventFields)
  .max(limits.eventContent, `Content must be at most ${limits.eventContent} characters`);
/** A scene's synopsis or notes: Markdown, empty allowed (null clears it as well). */
const deskText = (field: "Synopsis" | "Notes") =>
  z
    .string({ error: `${field} must be text` })
    .max(limits.eventNotes, `${field} must be at most ${limits.eventNotes.toLocaleString("en-US")} characters`)
    .nullable()
    .transform((v) => (v ?? "").replace(/\s+$/, ""));
const eventTitle = EventTitleSchema;
const eventContent = EventContentSchema;

// Story time and codex links of an event.
export const storyMessages = {
  endBeforeStart: "End must not be before start",
  endWithoutStart: "An end needs a start",
  entityIds: "Linked entities must be a list of entity ids",
  foreignEntity: "Linked entities must belong to this timeline",
  povNotLinked: "The point of view must be one of the linked entities",
} as const;

/**
 * A story date as the writer typed it, or null; an empty string clears it. The service reads it in the
 * timeline's calendar (db/domain/calendar), which decides whether it is a date.
 */
const storyDate = (field: "Start" | "End") =>
  z
    .string({ error: `Story ${field.toLowerCase()} must be a date written as text` })
    .trim()
    .max(100, `Story ${field.toLowerCase()} must be at most 100 characters`)
    .nullable()
    .transform((v) => v || null);

export const maxLinkedEntities = 100;

const entityIdsField = z
  .array(z.number({ error: storyMessages.entityIds }).int(storyMessages.entityIds).positive(storyMessages.entityIds), {
    error: storyMessages.entityIds,
  })
  .max(maxLinkedEntities, `An event can link at most ${maxLinkedEntities} entities`)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));

/**
 * An event's fields, each declared once: its rule (the zod schema, optional in a PATCH), what a PATCH of it is
 * (`text`: the title and content, written as a version; `story`: the story fields, links and plotlines, written
 * in the same UPDATE; `move`: its place in story order; a create takes all but `position`), and `column`: the events
 * column an export writes and an import reads as is (the other fields travel by name or index, see transfer.ts).
 * UpdateEventSchema, CreateEventSchema, updateEvent and the import/export read this table; a new field is one
 * entry here (and its column in db/schema).
 */
/** A scene's status (DESIGN §12); null clears it. */
const sceneStatusField = z.enum(sceneStatuses, { error: sceneStatusMessage }).nullable();

export const eventFields = {
  title: { schema: eventTitle, patch: "text", column: "title" },
  content: { schema: eventContent, patch: "text", column: "content" },
  position: {
    schema: z
      .number({ error: "Position must be a whole number" })
      .int("Position must be a whole number")
      .min(0, "Position must be a whole number"),
    patch: "move",

    column: null,
  },
  chapterId: { schema: chapterIdField, patch: "move", column: null },
  plotlineIds: { schema: plotlineIdsField, patch: "story", column: null },
  after: { schema: afterField, patch: "story", column: null },
  entityIds: { schema: entityIdsField, patch: "story", column: null },
  povEntityId: {
    schema: z
      .number({ error: "Point of view must be an entity id or null" })
      .int("Point of view must be an entity id or null")
      .positive("Point of view must be an entity id or null")
      .nullable(),
    patch: "story",

    column: null,
  },
  storyStart: { schema: storyDate("Start"), patch: "story", column: "story_start" },
  storyEnd: { schema: storyDate("End"), patch: "story", column: "story_end" },
  storyLabel: {
    schema: z
      .string({ error: "Story label must be text" })
      .trim()
      .max(100, "Story label must be 100 characters or less")
      .nullable()
      .transform((v) => v || null),
    patch: "story",

    column: "story_label",
    stored: null,
  },
  synopsis: { schema: deskText("Synopsis"), patch: "story", column: "synopsis", stored: "" },
  notes: { schema: deskText("Notes"), patch: "story", column: "notes", stored: "" },
  status: { schema: sceneStatusField, patch: "story", column: null, stored: null },
} as const;

type EventFields = typeof eventFields;
export type EventField = keyof EventFields;
const eventFieldNames = Object.keys(eventFields) as EventField[];

/** The fields a PATCH of this kind changes. */
export const patchFields = (kind: "text" | "story" | "move") => eventFieldNames.filter((name) => eventFields[name].patch === kind);
/** Whether `input` sets any field of `kind`. */
export const patches = (input: Partial<Record<EventField, unknown>>, kind: "text" | "story" | "move") =>
  patchFields(kind).some((name) => input[name] !== undefined);
/** A field an export writes and an import reads as it is (it has a `column`). */
export type CopiedField = { [K in EventField]: EventFields[K]["column"] extends string ? K : never }[EventField];
/** The fields an export writes and an import reads as they are, with their events column. */
/**
 * A field with `stored` (its value when a create leaves it out) is kept as it is in the events column of its name:
 * a create writes it, a PATCH writes it when given, and the event list reads it back, all from this table.
 */
export type StoredField = { [K in EventField]: EventFields[K] extends { stored: unknown } ? K : never }[EventField];
export type StoredValues = { [K in StoredField]: z.output<EventFields[K]["schema"]> };
export const storedEventFields = eventFieldNames.filter((name): name is StoredField => "stored" in eventFields[name]);
/** The stored fields of a create: what `input` gives, or each field's `stored` value. */
export const storedCreateValues = (input: Partial<StoredValues>): StoredValues =>
  Object.fromEntries(
    storedEventFields.map((name) => [name, input[name] !== undefined ? input[name] : eventFields[name].stored]),
  ) as StoredValues;
/** The stored fields a PATCH sets: those `input` gives. */
export const storedPatchValues = (input: Partial<StoredValues>): Partial<StoredValues> =>
  Object.fromEntries(storedEventFields.flatMap((name) => (input[name] !== undefined ? [[name, input[name]]] : [])));
export const copiedEventFields = eventFieldNames.flatMap((name) => {
  const column = eventFields[name].column;
  return column ? [{ name: name as CopiedField, column }] : [];
});

const optionalFields = Object.fromEntries(eventFieldNames.map((name) => [name, eventFields[name].schema.optional()])) as {
  [K in EventField]: z.ZodOptional<EventFields[K]["schema"]>;
};
const { position: _position, ...creatable } = optionalFields;

type StoryFieldsInput = {
  entityIds?: number[];
  povEntityId?: number | null;
  storyStart?: string | null;
  storyEnd?: string | null;
};

/** The rules that need two fields, when both are in the same request (the service re-checks the merged event). */
function checkStoryFields(v: StoryFieldsInput, ctx: z.RefinementCtx) {
  if (v.storyStart === null && v.storyEnd) {
    ctx.addIssue({ code: "custom", message: storyMessages.endWithoutStart, path: ["storyEnd"] });
  }
  if (v.povEntityId && v.entityIds && !v.entityIds.includes(v.povEntityId)) {
    ctx.addIssue({ code: "custom", message: storyMessages.povNotLinked, path: ["povEntityId"] });
  }
}

export const CreateEventSchema = z
  .object({
    title: eventTitle,
    content: eventContent,
    // Accepted for compatibility with older clients; the server decides (position = current count).
    timelineId: z.unknown().optional(),
    position: z.unknown().optional(),
    attachments: z.unknown().optional(),
    ...(({ title: _t, content: _c, ...rest }) => rest)(creatable),
  })
  .superRefine(checkStoryFields);
export type CreateEvent = z.infer<typeof CreateEventSchema>;

export const UpdateEventSchema = z
  .object({
    ...optionalFields,
    /** The version the writer started editing from; a newer stored version is a conflict (409). */
    baseVersion: z.number().int().min(1).optional(),
  })
  .refine((v) => eventFieldNames.some((name) => v[name] !== undefined), { message: "Nothing to update" })
  .superRefine(checkStoryFields);
export type UpdateEvent = z.infer<typeof UpdateEventSchema>;

// The codex: kinds, limits and default colors live in rules.ts (zod-free, for screens).
export { defaultEntityColor, type EntityKind, entityKinds, entityLimits } from "./rules";

const entityFields = {
  kind: z.enum(entityKinds, {
    error: (issue) => (issue.input === undefined ? "Kind is required" : "Kind must be character, place or thing"),
  }),
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(entityLimits.name, "Name must be 100 characters or less"),
  aliases: z
    .array(
      z.string({ error: "Aliases must be a list of names" }).trim().max(entityLimits.alias, "Each alias must be 100 characters or less"),
      { error: "Aliases must be a list of names" },
    )
    .max(entityLimits.aliases, "At most 20 aliases")
    // Blank and repeated aliases are dropped rather than refused.
    .transform((list) => [...new Set(list.filter(Boolean))]),
  description: z
    .string({ error: "Description must be text" })
    .max(entityLimits.description, "Description must be 10,000 characters or less")
    .nullable()
    .transform((v) => (v ?? "").trim()),
  color: hexColor,
};

export const CreateEntitySchema = z
  .object({
    kind: entityFields.kind,
    name: entityFields.name,
    // Optional in the output too, so the typed client (hc<Api>) may leave them out; the service fills them.
    aliases: entityFields.aliases.optional(),
    description: entityFields.description.optional(),
    color: entityFields.color.optional(),
    ...lifespanFields,
  })
  .refine((v) => isLifespanOrdered(v.born, v.died), { message: lifespanMessages.diedBeforeBorn, path: ["died"] });
export type CreateEntity = z.infer<typeof CreateEntitySchema>;

export const UpdateEntitySchema = z
  .object({
    kind: entityFields.kind.optional(),
    name: entityFields.name.optional(),
    aliases: entityFields.aliases.optional(),
    description: entityFields.description.optional(),
    color: entityFields.color.optional(),
    ...lifespanFields,
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" })
  .refine((v) => isLifespanOrdered(v.born, v.died), { message: lifespanMessages.diedBeforeBorn, path: ["died"] });
export type UpdateEntity = z.infer<typeof UpdateEntitySchema>;

// Sharing.
export const ShareRoleSchema = z.enum(["viewer", "collaborator"], { error: "Access level must be viewer or collaborator" });

export const ShareLinkSchema = z.object({ role: ShareRoleSchema.default("collaborator") });

export const ShareWithUserSchema = z.object({
  userEmail: z
    .string({ error: messages.email })
    .trim()
    .min(1, messages.email)
    .max(limits.email, messages.email)
    .pipe(z.email({ error: messages.email })),
  accessLevel: ShareRoleSchema.default("viewer"),
  /** For an address with no account: invite it (a sign-up link) instead of answering 404. */
  invite: z.boolean({ error: "invite must be true or false" }).optional(),
});

export const NotifyEmailSchema = z.enum(["instant", "daily", "off"], { error: "Email notifications must be instant, daily or off" });
export const MarkNotificationsReadSchema = z.object({
  ids: z
    .array(
      z.number({ error: "ids must be notification ids" }).int("ids must be notification ids").positive("ids must be notification ids"),
      {
        error: "ids must be notification ids",
      },
    )
    .max(500, "ids must be notification ids")
    .optional(),
});

export * from "./validation-ai";
export * from "./validation-chapters";
export * from "./validation-plotlines";
export * from "./validation-comments";
export * from "./validation-lifespans";
export { hexColor } from "./validation-map";
export * from "./validation-map";
