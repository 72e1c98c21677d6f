// `npm run lint:cycles`: no import circle anywhere in the house (app, db, worker, durable-objects). Every import
// counts: static, dynamic (a lazy component that imports its stand-in back is a circle too) and type-only (a
// type circle becomes a value circle with the first constant someone moves).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseCircular, parseDependencyTree, prettyCircular } from "dpdm";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Circles known and being taken apart elsewhere, each listed by its files (in any order). A circle found here
 * passes; one no longer found fails the lint, so this list only shrinks. Meant to be empty.
 */
export const ALLOWED = [];

const key = (files) => [...files].sort().join(" ");

export async function findCircles() {
  const tree = await parseDependencyTree(["app/**/*.{ts,tsx}", "db/**/*.ts", "worker/**/*.ts", "durable-objects/**/*.ts"], {
    context: root,
    cwd: root,
    tsconfig: path.join(root, "tsconfig.json"),
    transform: false,
    skipDynamicImports: false,
  });
  return parseCircular(tree, false);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const circles = await findCircles();
  const allowed = new Set(ALLOWED.map(key));
  const found = new Set(circles.map(key));
  const bad = circles.filter((c) => !allowed.has(key(c)));
  const gone = ALLOWED.filter((c) => !found.has(key(c)));
  if (bad.length) {
    console.error(`Import circles (take one import out of each, e.g. move what both need into a small module):\n${prettyCircular(bad)}`);
  }
  if (gone.length) {
    console.error(`No longer circles: remove them from ALLOWED in scripts/lint-cycles.mjs:\n${prettyCircular(gone)}`);
  }
  if (bad.length || gone.length) process.exit(1);
  console.log(`No import circles${ALLOWED.length ? ` (besides the ${ALLOWED.length} still allowed in scripts/lint-cycles.mjs)` : ""}.`);
}
