import { data } from "react-router";
import type { z } from "zod";
import { fieldErrors } from "../../db/domain/validation";
import { HttpError, UNEXPECTED } from "../../worker/lib/errors";

export type FormResult = { fieldErrors?: Record<string, string>; formError?: string; status?: number };

/** Parses a form with a domain schema; returns field messages (400) instead of throwing. */
export async function parseForm<T extends z.ZodType>(request: Request, schema: T) {
  const form = await request.formData();
  const values = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string"));
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    return { ok: false as const, response: data<FormResult>({ fieldErrors: fieldErrors(parsed.error) }, 400), values };
  }
  return { ok: true as const, data: parsed.data as z.output<T>, values };
}

/** A service's HttpError becomes a form message with its status; anything else is logged. */
export function formError(error: unknown) {
  if (error instanceof HttpError) {
    return data<FormResult>({ formError: error.message, status: error.status }, error.status);
  }
  console.error("[form] unexpected error:", error);
  return data<FormResult>({ formError: UNEXPECTED, status: 500 }, 500);
}
