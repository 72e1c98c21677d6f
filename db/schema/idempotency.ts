import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./accounts";
import { createdAt } from "./columns";

// A create's first answer per account and `Idempotency-Key` (worker/api/idempotency.ts), kept about 24 hours.
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** The method, path and a hash of the body the key was first sent with. */
    request: text("request").notNull(),
    /** The first answer's status and JSON body; null while that request is being made. */
    status: integer("status"),
    body: text("body"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);
export type IdempotencyKey = typeof idempotencyKeys.$inferSelect;
