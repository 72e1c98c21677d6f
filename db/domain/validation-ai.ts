import { z } from "zod";
import { limits, messages, TRANSFORM_TONES } from "./rules";

// What the AI, admin and billing endpoints accept.

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
  /** 'Suggest a scene for this beat': the title of a beat of the timeline's structure. */
  beat: z
    .string({ error: "Beat must be text" })
    .trim()
    .min(1, "Beat must be text")
    .max(200, "Please keep the beat under 200 characters")
    .optional(),
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
