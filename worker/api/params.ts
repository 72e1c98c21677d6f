import { notFound } from "../lib/errors";

/** Route ids are positive integers; anything else is simply not found. */
export function idParam(value: string | undefined, what = "Not found"): number {
  if (!value || !/^\d{1,12}$/.test(value)) throw notFound(what);
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1) throw notFound(what);
  return id;
}
