import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./accounts";

// Bring your own model: one row per writer who set their own AI provider. `apiKey` is sealed with
// AES-GCM under a key derived from APP_SECRET (worker/lib/crypto.ts) and never leaves the server.
export const userAiSettings = sqliteTable("user_ai_settings", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  provider: text("provider", { enum: ["openai", "openai-compatible", "anthropic"] }).notNull(),
  baseUrl: text("base_url"),
  model: text("model").notNull(),
  apiKey: text("api_key").notNull(),
  updatedAt: text("updated_at").notNull(),
});
