import { layoutFromParams } from "../../app/features/timeline/timeline-view";
import { describe, expect, it } from "vitest";
import {
  type EventsAction,
  type EventsState,
  type LocalChange,
  initEvents,
  mergeEvents,
  reduceEvents,
} from "~/features/timeline/timeline-store";
import type { EventView } from "../../worker/services/events";
import { storedCreateValues } from "../../db/domain/validation";

/** The events of a timeline screen, in the store, with the write clock the screen keeps. */
function screen(list: EventView[]) {
  let state: EventsState = initEvents({ events: list, total: list.length, all: list.length });
  let clock = 0;
  let writes = 0;
  const dispatch = (action: EventsAction) => {
    state = reduceEvents(state, action);
  };
  return {
    get state() {
      return state;
    },
    titles: () => state.events.map((e) => e.title),
    /** A fetch asked for now: its answer carries this moment. */
    ask: () => clock,
    server: (events: EventView[], asOf: number) => dispatch({ type: "server", list: events, asOf }),
    start: (change?: LocalChange) => {
      const id = ++writes;
      clock += 1;
      dispatch({ type: "write", id, change });
      return id;
    },
    land: (id: number, change?: Extract<EventsAction, { type: "landed" }>["change"]) => {
      clock += 1;
      dispatch({ type: "landed", id, at: clock, change });
    },
    fail: (id: number) => dispatch({ type: "failed", id }),
    dispatch,
  };
}

function ev(id: number, position: number, title = `Event ${id}`, fields: Partial<EventView> = {}): EventView {
  return {
    id,
    timelineId: 1,
    title,
    content: "",
    position,
    attachments: [],
    version: 1,
    entityIds: [],
    povEntityId: null,
    storyStart: null,
    storyEnd: null,
    storyStartDisplay: null,
    storyEndDisplay: null,
    ...storedCreateValues({}),
    chapterId: null,
    plotlineIds: [],
    after: [],
    assigneeIds: [],
    wordCount: 0,
    forReaders: true,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...fields,
  };
}

const three = () => [ev(1, 0, "Arrival"), ev(2, 1, "Storm"), ev(3, 2, "Harbour")];

describe("timeline events store", () => {
  it("a stale full fetch arriving after a local save does not undo it; a fetch asked after it lands does", () => {
    const s = screen(three());
    const stale = s.ask();
    const save = s.start();
    s.land(save, { kind: "event", event: ev(2, 1, "Storm at sea", { version: 2 }) });
    expect(s.titles()).toEqual(["Arrival", "Storm at sea", "Harbour"]);

    // Asked before the save landed: it still has the old title, and another writer's new event.
    s.server([...three(), ev(4, 3, "Lighthouse")], stale);
    expect(s.titles()).toEqual(["Arrival", "Storm at sea", "Harbour", "Lighthouse"]);
    expect(s.state.pending).toHaveLength(1);

    // Asked after: the server's list is the truth, the save is done with.
    s.server([ev(1, 0, "Arrival"), ev(2, 1, "Storm at sea", { version: 3, content: "Waves" }), ev(3, 2, "Harbour")], s.ask());
    expect(s.state.pending).toHaveLength(0);
    expect(s.state.events[1]).toMatchObject({ title: "Storm at sea", version: 3, content: "Waves" });
  });

  it("a stale fetch does not undo a move, in flight or landed; a failed move goes back", () => {
    const s = screen(three());
    const stale = s.ask();
    const move = s.start({ kind: "move", eventId: 3, to: 0 });
    expect(s.titles()).toEqual(["Harbour", "Arrival", "Storm"]);
    expect(s.state.events.map((e) => e.position)).toEqual([0, 1, 2]);
    s.server(three(), stale);
    expect(s.titles()).toEqual(["Harbour", "Arrival", "Storm"]);
    s.land(move);
    s.server(three(), stale);
    expect(s.titles()).toEqual(["Harbour", "Arrival", "Storm"]);

    const again = s.start({ kind: "move", eventId: 1, to: 2 });
    expect(s.titles()).toEqual(["Harbour", "Storm", "Arrival"]);
    s.fail(again);
    expect(s.titles()).toEqual(["Harbour", "Arrival", "Storm"]);
  });

  it("a server list arriving mid-drag does not reorder or add items under the pointer; the drop shows it", () => {
    const s = screen(three());
    s.dispatch({ type: "drag", active: true });
    const held = s.state.events;
    s.server([ev(3, 0, "Harbour"), ev(1, 1, "Arrival"), ev(2, 2, "Storm"), ev(4, 3, "Lighthouse")], s.ask());
    expect(s.state.events).toBe(held);
    expect(s.titles()).toEqual(["Arrival", "Storm", "Harbour"]);

    // Dropped: Storm to the top of the list as it is now.
    s.dispatch({ type: "drag", active: false });
    s.start({ kind: "move", eventId: 2, to: 0 });
    expect(s.titles()).toEqual(["Storm", "Harbour", "Arrival", "Lighthouse"]);
  });

  it("a delete in flight does not come back with a list asked before it landed", () => {
    const s = screen(three());
    const before = s.ask();
    const del = s.start();
    const during = s.ask();
    s.land(del, { kind: "delete", eventId: 2 });
    expect(s.titles()).toEqual(["Arrival", "Harbour"]);
    s.server(three(), during);
    expect(s.titles()).toEqual(["Arrival", "Harbour"]);
    s.server(three(), before);
    expect(s.titles()).toEqual(["Arrival", "Harbour"]);
    // A list asked after the delete landed no longer has it, and the store forgets the delete.
    s.server([ev(1, 0, "Arrival"), ev(3, 1, "Harbour")], s.ask());
    expect(s.state.pending).toHaveLength(0);
    expect(s.titles()).toEqual(["Arrival", "Harbour"]);
  });

  it("a room patch applies to its event only; the other events keep their objects", () => {
    const s = screen(three());
    const [first, , last] = s.state.events;
    s.dispatch({ type: "patch", eventId: 2, fields: { title: "Storm (typing)" } });
    expect(s.titles()).toEqual(["Arrival", "Storm (typing)", "Harbour"]);
    expect(s.state.events[0]).toBe(first);
    expect(s.state.events[2]).toBe(last);
    // Mid-drag too, without reordering anything.
    s.dispatch({ type: "drag", active: true });
    s.dispatch({ type: "patch", eventId: 3, fields: { content: "Ships" } });
    expect(s.state.events[2].content).toBe("Ships");
    s.dispatch({ type: "drag", active: false });
    expect(s.state.events.map((e) => [e.title, e.content])).toEqual([
      ["Arrival", ""],
      ["Storm (typing)", ""],
      ["Harbour", "Ships"],
    ]);
    // A patch to an event whose save is pending reaches the saved event too.
    const save = s.start();
    s.land(save, { kind: "event", event: ev(1, 0, "Arrival", { version: 2 }) });
    s.dispatch({ type: "patch", eventId: 1, fields: (e) => ({ attachments: [...e.attachments], content: "Dawn" }) });
    s.server(three(), 0);
    expect(s.state.events[0]).toMatchObject({ content: "Dawn", version: 2 });
  });

  it("the merge is the server's list in story order with the pending writes on top, in order", () => {
    const server = [ev(2, 1, "Storm"), ev(1, 0, "Arrival"), ev(3, 2, "Harbour")];
    const merged = mergeEvents(server, [
      { id: 1, change: { kind: "move", eventId: 1, to: 2 }, landed: null },
      { id: 2, change: { kind: "delete", eventId: 3 }, landed: 4 },
      { id: 3, change: { kind: "event", event: ev(2, 0, "Storm!") }, landed: 5 },
    ]);
    expect(merged.map((e) => [e.id, e.title, e.position])).toEqual([
      [2, "Storm!", 0],
      [1, "Arrival", 2],
    ]);
  });
});

describe("the layout in the address", () => {
  it("reads a known layout and falls back to vertical for anything else", () => {
    expect(layoutFromParams(new URLSearchParams("layout=map"))).toBe("map");
    expect(layoutFromParams(new URLSearchParams("layout=horizontal"))).toBe("horizontal");
    for (const bad of ["", "layout=", "layout=MAP", "layout=<script>", "layout=__proto__", "layout=lanes&layout=map"])
      expect(layoutFromParams(new URLSearchParams(bad))).toBe(bad.startsWith("layout=lanes") ? "lanes" : "vertical");
  });
});
