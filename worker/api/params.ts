import { validator } from "hono/validator";
import { badRequest, notFound } from "../lib/errors";

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

/** `?share=` plus `?order=position|chronological` for an event list. */
export const eventListQuery = validator("query", (value): { share?: string; order: "position" | "chronological" } => {
  const { share } = shareOf(value.share);
  const order = value.order;
  if (order === undefined || order === "position") return { share, order: "position" };
  if (order === "chronological") return { share, order };
  throw badRequest("Order must be position or chronological");
});

function shareOf(share: unknown) {
  return typeof share === "string" && share.length > 0 && share.length <= 100 ? { share } : {};
}
