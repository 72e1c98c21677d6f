import { useEffect, useState } from "react";
import { client, shareParam, unwrap } from "~/lib/client";
import { useCoWrite } from "./co-editor-context";

// `@` in a comment: the people who can read the timeline, loaded the first time the writer types `@`.

export type Person = { id: number; name: string };

/** The `@query` being typed just before the caret (no line break, at most 40 characters), or null. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf("@");
  if (at === -1 || caret - at > 41) return null;
  if (at > 0 && /[\p{L}\p{N}_]/u.test(before[at - 1])) return null;
  const query = before.slice(at + 1);
  if (/[\n@]/.test(query)) return null;
  return { start: at, query };
}

/** The readers whose name starts with (or has a word starting with) the query, me left out. */
export function matchPeople(people: Person[], query: string, myUserId: number) {
  const q = query.trim().toLowerCase();
  return people
    .filter((p) => p.id !== myUserId)
    .filter(
      (p) =>
        !q ||
        p.name.toLowerCase().startsWith(q) ||
        p.name
          .toLowerCase()
          .split(/\s+/)
          .some((w) => w.startsWith(q)),
    )
    .slice(0, 6);
}

/** The timeline's readers, fetched once `wanted` turns true. */
export function usePeople(wanted: boolean) {
  const api = useCoWrite();
  const [people, setPeople] = useState<Person[]>([]);
  const timelineId = api?.timelineId;
  const shareCode = api?.shareCode ?? null;
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (!wanted || loaded || !timelineId) return;
    setLoaded(true);
    unwrap(client.api.timelines[":id"].people.$get({ param: { id: String(timelineId) }, query: shareParam(shareCode) }))
      .then(setPeople)
      .catch(() => setPeople([]));
  }, [wanted, loaded, timelineId, shareCode]);
  return { people, myUserId: api?.myUserId ?? 0 };
}
