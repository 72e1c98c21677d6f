import { z } from "zod";
import { limits, messages } from "./rules";

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
  name: z
    .string({ error: messages.name })
    .trim()
    .min(2, messages.name)
    .max(limits.name, `Name must be at most ${limits.name} characters`),
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

/** First message of a failed parse, in SPEC.md wording. */
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

// Timelines and events (SPEC.md §5; bounds DESIGN.md §4).
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

const eventTitle = z
  .string({ error: messages.eventFields })
  .trim()
  .min(1, messages.eventFields)
  .max(limits.eventTitle, `Title must be at most ${limits.eventTitle} characters`);
const eventContent = z
  .string({ error: messages.eventFields })
  .trim()
  .min(1, messages.eventFields)
  .max(limits.eventContent, `Content must be at most ${limits.eventContent} characters`);

export const CreateEventSchema = z.object({
  title: eventTitle,
  content: eventContent,
  // Accepted for SPEC.md §7 compatibility; the server decides (position = current count).
  timelineId: z.unknown().optional(),
  position: z.unknown().optional(),
  attachments: z.unknown().optional(),
});
export type CreateEvent = z.infer<typeof CreateEventSchema>;

export const UpdateEventSchema = z
  .object({
    title: eventTitle.optional(),
    content: eventContent.optional(),
    position: z.number({ error: "Position must be a whole number" }).int("Position must be a whole number").min(0, "Position must be a whole number").optional(),
    /** The version the writer started editing from; a newer stored version is a conflict (409). */
    baseVersion: z.number().int().min(1).optional(),
  })
  .refine((v) => v.title !== undefined || v.content !== undefined || v.position !== undefined, {
    message: "Nothing to update",
  });
export type UpdateEvent = z.infer<typeof UpdateEventSchema>;

// Sharing (SPEC.md §2 Share Timeline dialog, §5).
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

// Admin (SPEC.md §7: POST /api/admin/users/{id}/premium)
export const SetPremiumSchema = z.object({
  premium: z.boolean({ error: "premium must be true or false" }),
});

// AI (SPEC.md §5 AI tabs and schemas; inputs trimmed; DESIGN.md §4 bounds).
const aiText = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(limits.aiInput, `Please keep it under ${limits.aiInput} characters`);

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
  timelineId: z.coerce.number({ error: "Timeline id must be an integer" }).int("Timeline id must be an integer").positive("Timeline id must be an integer"),
  prompt: aiText(messages.ideasPrompt),
});

export const OpenAIKeySchema = z.object({
  apiKey: z.string({ error: messages.apiKey }).trim().min(1, messages.apiKey).max(400, "That API key is too long"),
});

// Billing (SPEC.md §7 subscription and config calls).
export const UpgradeSchema = z.object({
  session_id: z.string({ error: "session_id is required" }).trim().min(1, "session_id is required").max(255, "session_id is too long"),
});

export const StripeKeysSchema = z.object({
  secretKey: z.string({ error: messages.stripeKeys }).trim().min(1, messages.stripeKeys).max(300, "That key is too long"),
  publishableKey: z.string({ error: messages.stripeKeys }).trim().min(1, messages.stripeKeys).max(300, "That key is too long"),
  webhookSecret: z.string().trim().max(300, "That secret is too long").optional(),
});
