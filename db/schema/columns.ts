import { sql } from "drizzle-orm";
import { text } from "drizzle-orm/sqlite-core";

// Timestamps are ISO-8601 strings (UTC, millisecond precision): they sort correctly as text,
// serialise to JSON unchanged and are readable in `wrangler d1 execute` output.
export const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
export const createdAt = () => text("created_at").notNull().default(now);
