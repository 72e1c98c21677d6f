import { validator } from "hono/validator";
import { notFound } from "../lib/errors";

/** Route ids are positive integers; anything else is simply not found. */
export function idParam(value: string | undefined, what = "Not found"): number {
  if (!value || !/^\d{1,12}$/.test(value)) throw notFound(what);
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1) throw notFound(what);
  return id;
}

/**
 * The optional `?share=<code>` of shared mode, declared so Hono's typed client (`hc<Api>`) can send it.
 * Unknown or malformed codes are simply not access (the services decide).
 */
export const shareQuery = validator("query", (value): { share?: string } => {
  const share = value.share;
  return typeof share === "string" && share.length > 0 && share.length <= 100 ? { share } : {};
});
