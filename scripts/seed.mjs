// Idempotent local seed: an admin, a demo writer and a sample timeline. Prints the credentials.
import { readDevVars, run } from "./lib.mjs";
import { hashPassword } from "../worker/lib/crypto.ts";

export const ADMIN = { email: "admin@storyweave.local", password: "storyweave-admin", name: "Ada Admin" };
export const WRITER = { email: "writer@storyweave.local", password: "storyweave-writer", name: "Wren Writer" };

const secret = readDevVars().APP_SECRET;
if (!secret) {
  console.error("No APP_SECRET in .dev.vars: run `npm run dev` once (it creates one).");
  process.exit(1);
}

const q = (v) => `'${String(v).replace(/'/g, "''")}'`;
const user = async (u, role) =>
  `INSERT INTO users (email, hashed_password, name, role, is_email_verified) VALUES (${q(u.email)}, ${q(
    await hashPassword(u.password, secret),
  )}, ${q(u.name)}, ${q(role)}, 1) ON CONFLICT DO NOTHING;
   UPDATE users SET is_email_verified = 1 WHERE email = ${q(u.email)};`;

const events = [
  ["The letter arrives", "Mara finds an unsigned letter under the lighthouse door, sealed with her mother's wax."],
  ["Crossing to the island", "A storm forces the ferry back twice; the ferryman knows more than he says."],
  ["The keeper's journal", "Entries stop on the night Mara's mother vanished, except one page written in a child's hand."],
  ["Confrontation at the lamp room", "The ferryman admits he rowed her mother out that night, and that she asked him to."],
];
const writerId = `(SELECT id FROM users WHERE email = ${q(WRITER.email)})`;
const timelineId = `(SELECT id FROM timelines WHERE user_id = ${writerId} AND title = 'The Lighthouse Keeper')`;

const sql = [
  await user(ADMIN, "admin"),
  await user(WRITER, "user"),
  `INSERT INTO timelines (user_id, title, description) SELECT ${writerId}, 'The Lighthouse Keeper',
     'A mystery novel: Mara returns to the island where her mother disappeared.'
   WHERE NOT EXISTS (SELECT 1 FROM timelines WHERE user_id = ${writerId});`,
  ...events.map(
    ([title, content], i) =>
      `INSERT INTO events (timeline_id, title, content, position) SELECT ${timelineId}, ${q(title)}, ${q(content)}, ${i}
       WHERE ${timelineId} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM events WHERE timeline_id = ${timelineId} AND position = ${i});`,
  ),
].join("\n");

run("wrangler", ["d1", "execute", "DB", "--local", "--command", sql], { stdio: ["ignore", "ignore", "inherit"] });

console.log(`
• Local accounts (seeded):
    admin   ${ADMIN.email} / ${ADMIN.password}
    writer  ${WRITER.email} / ${WRITER.password}
  The seeded accounts are verified. An address in ADMIN_EMAILS (.dev.vars) is an admin once verified.
`);
