import { z } from "zod";
import { MAP_NODE_KEY, TRANSFORM_TONES, entityKinds, entityLimits, limits, mapLimits, messages } from "./rules";
import { isStoryRangeOrdered, parseStoryDate, storyDateReason } from "./story-date";

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
});
export type CreateTimeline = z.infer<typeof CreateTimelineSchema>;

export const UpdateTimelineSchema = z.object({
  title: timelineTitle.optional(),
  description: optionalDescription.optional(),
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

/** A story date or null; an empty string clears it. */
const storyDate = (field: "Start" | "End") =>
  z
    .string({ error: `${field} ${storyDateReason.format}` })
    .trim()
    .max(20, `${field} ${storyDateReason.format}`)
    .nullable()
    .transform((v, ctx) => {
      if (!v) return null;
      const parsed = parseStoryDate(v);
      if (!parsed.ok) {
        ctx.addIssue({ code: "custom", message: `${field} ${storyDateReason[parsed.reason]}` });
        return z.NEVER;
      }
      return v;
    });

export const maxLinkedEntities = 100;

const storyFields = {
  entityIds: z
    .array(z.number({ error: storyMessages.entityIds }).int(storyMessages.entityIds).positive(storyMessages.entityIds), {
      error: storyMessages.entityIds,
    })
    .max(maxLinkedEntities, `An event can link at most ${maxLinkedEntities} entities`)
    .transform((ids) => [...new Set(ids)].sort((a, b) => a - b))
    .optional(),
  povEntityId: z
    .number({ error: "Point of view must be an entity id or null" })
    .int("Point of view must be an entity id or null")
    .positive("Point of view must be an entity id or null")
    .nullable()
    .optional(),
  storyStart: storyDate("Start").optional(),
  storyEnd: storyDate("End").optional(),
  storyLabel: z
    .string({ error: "Story label must be text" })
    .trim()
    .max(100, "Story label must be 100 characters or less")
    .nullable()
    .transform((v) => v || null)
    .optional(),
};

type StoryFieldsInput = {
  entityIds?: number[];
  povEntityId?: number | null;
  storyStart?: string | null;
  storyEnd?: string | null;
};

/** The rules that need two fields, when both are in the same request (the service re-checks the merged event). */
function checkStoryFields(v: StoryFieldsInput, ctx: z.RefinementCtx) {
  if (v.storyStart && v.storyEnd && !isStoryRangeOrdered(v.storyStart, v.storyEnd)) {
    ctx.addIssue({ code: "custom", message: storyMessages.endBeforeStart, path: ["storyEnd"] });
  }
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
    ...storyFields,
  })
  .superRefine(checkStoryFields);
export type CreateEvent = z.infer<typeof CreateEventSchema>;

export const UpdateEventSchema = z
  .object({
    title: eventTitle.optional(),
    content: eventContent.optional(),
    position: z
      .number({ error: "Position must be a whole number" })
      .int("Position must be a whole number")
      .min(0, "Position must be a whole number")
      .optional(),
    /** The version the writer started editing from; a newer stored version is a conflict (409). */
    baseVersion: z.number().int().min(1).optional(),
    ...storyFields,
  })
  .refine(
    (v) =>
      v.title !== undefined ||
      v.content !== undefined ||
      v.position !== undefined ||
      v.entityIds !== undefined ||
      v.povEntityId !== undefined ||
      v.storyStart !== undefined ||
      v.storyEnd !== undefined ||
      v.storyLabel !== undefined,
    { message: "Nothing to update" },
  )
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
  color: z
    .string({ error: "Color must be a hex color like #a1b2c3" })
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, "Color must be a hex color like #a1b2c3")
    .transform((v) => v.toLowerCase()),
};

export const CreateEntitySchema = z.object({
  kind: entityFields.kind,
  name: entityFields.name,
  // Optional in the output too, so the typed client (hc<Api>) may leave them out; the service fills them.
  aliases: entityFields.aliases.optional(),
  description: entityFields.description.optional(),
  color: entityFields.color.optional(),
});
export type CreateEntity = z.infer<typeof CreateEntitySchema>;

export const UpdateEntitySchema = z
  .object({
    kind: entityFields.kind.optional(),
    name: entityFields.name.optional(),
    aliases: entityFields.aliases.optional(),
    description: entityFields.description.optional(),
    color: entityFields.color.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });
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
});

// Admin
export const SetPremiumSchema = z.object({
  premium: z.boolean({ error: "premium must be true or false" }),
});

// AI.
const aiText = (required: string) =>
  z.string({ error: required }).trim().min(1, required).max(limits.aiInput, `Please keep it under ${limits.aiInput} characters`);

export const DEFAULT_ENHANCE_INSTRUCTION = "Enhance this text";

export const IdeasSchema = z.object({ prompt: aiText(messages.ideasPrompt) });

export const EnhanceSchema = z.object({
  text: aiText(messages.enhanceText),
  instruction: z
    .string()
    .trim()
    .max(500, "Please keep the instruction under 500 characters")
    .optional()
    .transform((v) => v || DEFAULT_ENHANCE_INSTRUCTION),
});

export const CharacterSchema = z.object({ description: aiText("Character description is required") });

export const SuggestPlotSchema = z.object({
  timelineId: z.coerce
    .number({ error: "Timeline id must be an integer" })
    .int("Timeline id must be an integer")
    .positive("Timeline id must be an integer"),
  prompt: aiText(messages.ideasPrompt),
});

// 'Continue this scene' and Describe / Rewrite / Expand on a selection.
export const ContinueSceneSchema = z.object({
  instruction: z
    .string({ error: "Instruction must be text" })
    .trim()
    .max(500, "Please keep the instruction under 500 characters")
    .optional(),
});

export const TransformSchema = z.object({
  mode: z.enum(["describe", "rewrite", "expand"], { error: "Mode must be describe, rewrite or expand" }),
  text: z
    .string({ error: "Please select some text first" })
    .trim()
    .min(1, "Please select some text first")
    .max(5000, "Please keep the selection under 5000 characters"),
  tone: z.enum(TRANSFORM_TONES, { error: `Tone must be one of: ${TRANSFORM_TONES.join(", ")}` }).optional(),
  eventId: z.coerce
    .number({ error: "Event id must be an integer" })
    .int("Event id must be an integer")
    .positive("Event id must be an integer")
    .optional(),
});

export const StopStreamSchema = z.object({
  id: z.string({ error: "Stream id is required" }).regex(/^[A-Za-z0-9-]{8,64}$/, "Stream id is invalid"),
});

export const OpenAIKeySchema = z.object({
  apiKey: z.string({ error: messages.apiKey }).trim().min(1, messages.apiKey).max(400, "That API key is too long"),
});

// Billing.
export const UpgradeSchema = z.object({
  session_id: z.string({ error: "session_id is required" }).trim().min(1, "session_id is required").max(255, "session_id is too long"),
});

export const StripeKeysSchema = z.object({
  secretKey: z.string({ error: messages.stripeKeys }).trim().min(1, messages.stripeKeys).max(300, "That key is too long"),
  publishableKey: z.string({ error: messages.stripeKeys }).trim().min(1, messages.stripeKeys).max(300, "That key is too long"),
  webhookSecret: z.string().trim().max(300, "That secret is too long").optional(),
});

// The mind map.
const mapColor = entityFields.color;
const coordinate = z
  .number({ error: "Positions must be numbers" })
  .min(-mapLimits.coordinate, "Positions must be between -1,000,000 and 1,000,000")
  .max(mapLimits.coordinate, "Positions must be between -1,000,000 and 1,000,000");
const size = z
  .number({ error: "Sizes must be numbers" })
  .min(20, "Sizes must be between 20 and 10,000")
  .max(mapLimits.size, "Sizes must be between 20 and 10,000");
const nodeKey = z.string({ error: "Unknown map node" }).regex(MAP_NODE_KEY, "Unknown map node");
const groupKey = z
  .string({ error: "A node can only be placed in a group" })
  .regex(/^group-[1-9]\d{0,11}$/, "A node can only be placed in a group")
  .nullable();
const mapText = z
  .string({ error: "Text is required" })
  .trim()
  .min(1, "Text is required")
  .max(mapLimits.text, "Text must be 500 characters or less");
const edgeLabel = z.string({ error: "Label must be text" }).trim().max(mapLimits.label, "Label must be 60 characters or less");

export const MapPositionsSchema = z.object({
  positions: z
    .array(z.object({ node: nodeKey, x: coordinate, y: coordinate }, { error: "Each position needs a node, x and y" }), {
      error: "Positions must be a list",
    })
    .max(mapLimits.positions, "At most 2000 positions at once"),
});
export type MapPositions = z.infer<typeof MapPositionsSchema>;

export const CreateMapNodeSchema = z.object({
  kind: z.enum(["idea", "group"], { error: "Kind must be idea or group" }),
  text: mapText,
  x: coordinate,
  y: coordinate,
  color: mapColor.nullable().optional(),
  width: size.nullable().optional(),
  height: size.nullable().optional(),
  parentId: groupKey.optional(),
});
export type CreateMapNode = z.infer<typeof CreateMapNodeSchema>;

export const UpdateMapNodeSchema = z
  .object({
    text: mapText.optional(),
    x: coordinate.optional(),
    y: coordinate.optional(),
    color: mapColor.nullable().optional(),
    width: size.nullable().optional(),
    height: size.nullable().optional(),
    parentId: groupKey.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });
export type UpdateMapNode = z.infer<typeof UpdateMapNodeSchema>;

export const CreateMapEdgeSchema = z.object({
  source: nodeKey,
  target: nodeKey,
  label: edgeLabel.optional(),
  color: mapColor.nullable().optional(),
});
export type CreateMapEdge = z.infer<typeof CreateMapEdgeSchema>;

export const UpdateMapEdgeSchema = z
  .object({ label: edgeLabel.optional(), color: mapColor.nullable().optional() })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });
export type UpdateMapEdge = z.infer<typeof UpdateMapEdgeSchema>;
