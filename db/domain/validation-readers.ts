import { z } from "zod";

// Reader links' request bodies (DESIGN §12 'Readers'): worker/api/readers.ts validates with them, the API reference documents them.

const text = (what: string, max: number) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(max, `${what} must be ${max.toLocaleString("en-US")} characters or less`);

export const CreateReaderLinkSchema = z.object({ label: text("Label", 80) });
const eventId = z.number({ error: "eventId is required" }).int("eventId must be a scene's id").positive("eventId must be a scene's id");
const name = text("Name", 60).optional();
export const ReaderProgressSchema = z.object({ eventId, name });
const around = (field: string) =>
  z
    .string({ error: `${field} must be text` })
    .max(500, "The text around the selection must be 500 characters or less")
    .optional();
export const ReaderCommentSchema = z.object({
  eventId,
  name,
  body: text("Comment", 5000),
  anchor: z
    .object({
      quote: z.string({ error: "anchor.quote must be text" }).trim().max(1000, "The selected text must be 1,000 characters or less"),
      // The words just before and after the selection in the reading view: which occurrence of a repeated quote.
      prefix: around("anchor.prefix"),
      suffix: around("anchor.suffix"),
    })
    .optional(),
});
/** 'Not for readers' on its own: `PATCH /api/events/{id} {forReaders}`. */
export const ForReadersSchema = z.object({ forReaders: z.boolean({ error: "forReaders must be true or false" }) }).strict();
