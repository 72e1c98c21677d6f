// One story order with chapters: the scenes of a chapter are contiguous and the chapters' blocks follow the
// chapters' order; scenes in no chapter may sit anywhere between blocks. Pure functions over the order as a
// list, so the server and the screens can reason the same way.

export type Scene = { id: number; chapterId: number | null };

const indexesOf = (seq: readonly Scene[], chapterId: number) => seq.flatMap((s, i) => (s.chapterId === chapterId ? [i] : []));

/** Every chapter's scenes contiguous, the blocks in the chapters' order. */
export function isStoryOrderValid(seq: readonly Scene[], order: readonly number[]) {
  const rank = new Map(order.map((id, i) => [id, i]));
  const closed = new Set<number>();
  let current: number | null = null;
  let lastRank = -1;
  for (const scene of seq) {
    if (scene.chapterId === current) continue;
    if (current !== null) closed.add(current);
    current = scene.chapterId;
    if (current === null) continue;
    const r = rank.get(current);
    if (r === undefined || closed.has(current) || r < lastRank) return false;
    lastRank = r;
  }
  return true;
}

/**
 * Where a chapter's scenes go when it has none yet (in `seq`, which holds none of them): right after the last
 * scene of the nearest earlier chapter that has scenes, else right before the first scene of the nearest later
 * one, else at the end of the story.
 */
export function blockIndex(seq: readonly Scene[], order: readonly number[], chapterId: number) {
  const at = order.indexOf(chapterId);
  for (let i = at - 1; i >= 0; i--) {
    const found = indexesOf(seq, order[i]);
    if (found.length > 0) return found[found.length - 1] + 1;
  }
  for (let i = at + 1; i < order.length; i++) {
    const found = indexesOf(seq, order[i]);
    if (found.length > 0) return found[0];
  }
  return seq.length;
}

/**
 * A scene moved into a chapter (or out of one: null): into a chapter it goes at the end of that chapter's scenes,
 * or at `position` clamped to the chapter's range; out of a chapter, right after the chapter's remaining scenes,
 * or at `position` unless that is inside another chapter (then right after that chapter).
 */
export function moveToChapter(
  seq: readonly Scene[],
  order: readonly number[],
  eventId: number,
  chapterId: number | null,
  position?: number,
): Scene[] {
  const from = seq.findIndex((s) => s.id === eventId);
  if (from < 0) return [...seq];
  const scene = { ...seq[from], chapterId };
  const rest = seq.filter((s) => s.id !== eventId);
  let to: number;
  if (chapterId !== null) {
    const found = indexesOf(rest, chapterId);
    if (found.length === 0) to = blockIndex(rest, order, chapterId);
    else {
      const [first, last] = [found[0], found[found.length - 1] + 1];
      to = position === undefined ? last : Math.min(Math.max(position, first), last);
    }
  } else {
    const former = seq[from].chapterId;
    const left = former === null ? [] : indexesOf(rest, former);
    to = position === undefined ? (left.length > 0 ? left[left.length - 1] + 1 : from) : Math.min(position, rest.length);
    // Never inside a chapter's scenes: after them.
    const inside = to > 0 && to < rest.length && rest[to - 1].chapterId !== null && rest[to - 1].chapterId === rest[to].chapterId;
    if (inside) {
      const around = indexesOf(rest, rest[to].chapterId as number);
      to = around[around.length - 1] + 1;
    }
  }
  to = Math.min(Math.max(to, 0), rest.length);
  return [...rest.slice(0, to), scene, ...rest.slice(to)];
}

/**
 * After a scene was dragged to a new place in the story (`seq` is the order after the move): it keeps its chapter
 * when it still sits with that chapter's scenes; otherwise it joins the chapter of the scene just before it (at
 * the very start of the story: of the scene just after it), or no chapter.
 */
export function chapterAfterMove(seq: readonly Scene[], order: readonly number[], eventId: number): number | null {
  const at = seq.findIndex((s) => s.id === eventId);
  if (at < 0) return null;
  const own = seq[at].chapterId;
  if (isStoryOrderValid(seq, order)) return own;
  const neighbour = at > 0 ? seq[at - 1] : seq[at + 1];
  return neighbour?.chapterId ?? null;
}

/** A chapter moved to `position` in the chapters' order; its scenes move with it as one block. */
export function moveChapter(seq: readonly Scene[], order: readonly number[], chapterId: number, position: number) {
  const without = order.filter((id) => id !== chapterId);
  const to = Math.min(Math.max(position, 0), without.length);
  const newOrder = [...without.slice(0, to), chapterId, ...without.slice(to)];
  const block = seq.filter((s) => s.chapterId === chapterId);
  const rest = seq.filter((s) => s.chapterId !== chapterId);
  if (block.length === 0) return { seq: [...seq], order: newOrder };
  const firstAt = seq.findIndex((s) => s.chapterId === chapterId);
  const others = newOrder.filter((id) => id !== chapterId && rest.some((s) => s.chapterId === id));
  // No other chapter has scenes: the block stays where it was.
  const insertAt = others.length === 0 ? firstAt : blockIndex(rest, newOrder, chapterId);
  return { seq: [...rest.slice(0, insertAt), ...block, ...rest.slice(insertAt)], order: newOrder };
}
