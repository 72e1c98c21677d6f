/**
 * The Relationships view's model (DESIGN.md §12 'A story that knows itself'), plain data in and out: which
 * relationships hold as of a scene, which of them make a family tree, and where the web's entries sit.
 */

/** A relationship as `GET /api/timelines/{id}/relationships` gives it. */
export type Relationship = { id: number; fromId: number; toId: number; label: string; sinceEventId: number | null };
/** A scene of the timeline, in story order. */
export type SceneOption = { id: number; title: string };

/**
 * The relationships in force as of a scene (null: the whole story): those from the start, and those whose
 * 'since' scene comes at or before it in story order. One whose scene is not listed (deleted, or not loaded
 * yet) is left out as of any scene, as the story bible leaves it out.
 */
export function relationshipsAsOf<R extends Relationship>(list: R[], scenes: SceneOption[], sceneId: number | null): R[] {
  if (sceneId === null) return list;
  const at = new Map(scenes.map((s, i) => [s.id, i]));
  const until = at.get(sceneId);
  if (until === undefined) return list;
  return list.filter((r) => r.sinceEventId === null || (at.get(r.sinceEventId) ?? Number.POSITIVE_INFINITY) <= until);
}

/**
 * A label read as "{from} {label} {to}". A parent's words ('parent of', 'mother of', 'father of', 'mom', 'mum',
 * 'dad', with 'step', 'adoptive', 'birth' or 'foster' before them) make `from` the parent of `to`; a child's
 * ('child of', 'son of', 'daughter of', 'stepson of'…) make `from` the child of `to`. Case, a leading 'is' or
 * 'the', a trailing 'of' and spaces do not matter; anything else ('grandmother of', 'sister of', 'parent figure
 * to') is not a generation of the family tree.
 */
export function generationOf(label: string): "parent" | "child" | null {
  const words = label
    .toLowerCase()
    .replace(/[^a-z\s-]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^(is )?(the |a |an )?/, "")
    .replace(/ of$/, "");
  const core = words.replace(/^(step|adoptive|birth|foster)[\s-]?/, "");
  if (/^(parent|mother|father|mom|mum|dad)$/.test(core)) return "parent";
  if (/^(child|son|daughter|kid)$/.test(core)) return "child";
  return null;
}

/** A family tree's edges, parent first: each parent/child relationship turned the same way round. */
export function familyLinks<R extends Relationship>(list: R[]): { parentId: number; childId: number; relationship: R }[] {
  const out: { parentId: number; childId: number; relationship: R }[] = [];
  for (const r of list) {
    const generation = generationOf(r.label);
    if (generation === "parent") out.push({ parentId: r.fromId, childId: r.toId, relationship: r });
    else if (generation === "child") out.push({ parentId: r.toId, childId: r.fromId, relationship: r });
  }
  return out;
}

/** The web's edges: one per ordered pair of entries, its labels joined (two arrows on one line would overlap). */
export function webLinks<R extends Relationship>(list: R[]): { fromId: number; toId: number; label: string }[] {
  const byPair = new Map<string, { fromId: number; toId: number; labels: string[] }>();
  for (const r of list) {
    const key = `${r.fromId}-${r.toId}`;
    const pair = byPair.get(key) ?? { fromId: r.fromId, toId: r.toId, labels: [] };
    pair.labels.push(r.label);
    byPair.set(key, pair);
  }
  return [...byPair.values()].map((p) => ({ fromId: p.fromId, toId: p.toId, label: p.labels.join(" · ") }));
}

/** The entries a list of relationships joins, in the codex's order. */
export function joinedEntries<E extends { id: number }>(entries: E[], list: Relationship[]): E[] {
  const joined = new Set(list.flatMap((r) => [r.fromId, r.toId]));
  return entries.filter((e) => joined.has(e.id));
}

/** The web laid out on a circle (every entry in reach of every other), each entry's top-left corner. */
export function circleLayout(ids: number[], width: number, height: number): Map<number, { x: number; y: number }> {
  const out = new Map<number, { x: number; y: number }>();
  if (ids.length === 1) out.set(ids[0], { x: 0, y: 0 });
  if (ids.length <= 1) return out;
  // Wide enough that neighbouring entries do not touch.
  const radius = Math.max(160, (ids.length * (width + 30)) / (2 * Math.PI));
  ids.forEach((id, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / ids.length;
    out.set(id, { x: Math.round(radius * Math.cos(angle) - width / 2), y: Math.round(radius * Math.sin(angle) - height / 2) });
  });
  return out;
}
