import { describe, expect, it } from "vitest";
import { HISTORY_LIMIT, historyReducer, startHistory } from "./draft-history.ts";

describe("draft history", () => {
  it("undoes and redoes single edits in order", () => {
    let state = startHistory("a");
    state = historyReducer(state, { type: "edit", next: "b" });
    state = historyReducer(state, { type: "edit", next: "c" });
    state = historyReducer(state, { type: "undo" });
    expect(state.present).toBe("b");
    state = historyReducer(state, { type: "undo" });
    expect(state.present).toBe("a");
    expect(historyReducer(state, { type: "undo" })).toBe(state);
    state = historyReducer(state, { type: "redo" });
    expect(state.present).toBe("b");
  });

  it("makes the edits of one group a single step", () => {
    let state = startHistory("");
    for (const text of ["H", "He", "Hel", "Hello"])
      state = historyReducer(state, { type: "edit", next: text, group: "prompt" });
    state = historyReducer(state, { type: "edit", next: "Hello!", group: "greeting" });
    state = historyReducer(state, { type: "undo" });
    expect(state.present).toBe("Hello");
    state = historyReducer(state, { type: "undo" });
    expect(state.present).toBe("");
  });

  it("starts a new step in a group after an undo", () => {
    let state = startHistory("a");
    state = historyReducer(state, { type: "edit", next: "ab", group: "x" });
    state = historyReducer(state, { type: "undo" });
    state = historyReducer(state, { type: "edit", next: "ac", group: "x" });
    state = historyReducer(state, { type: "undo" });
    expect(state.present).toBe("a");
  });

  it("drops what could be redone once something new is edited", () => {
    let state = startHistory(1);
    state = historyReducer(state, { type: "edit", next: 2 });
    state = historyReducer(state, { type: "undo" });
    state = historyReducer(state, { type: "edit", next: 3 });
    expect(historyReducer(state, { type: "redo" }).present).toBe(3);
  });

  it("applies a change to the state it lands on", () => {
    let state = startHistory(1);
    state = historyReducer(state, { type: "apply", change: (n) => n + 1 });
    state = historyReducer(state, { type: "apply", change: (n) => n * 10 });
    expect(state.present).toBe(20);
    expect(historyReducer(state, { type: "undo" }).present).toBe(2);
  });

  it("keeps at most the limit of steps", () => {
    let state = startHistory(0);
    for (let i = 1; i <= HISTORY_LIMIT + 20; i++) state = historyReducer(state, { type: "edit", next: i });
    expect(state.past).toHaveLength(HISTORY_LIMIT);
    expect(state.past[0]).toBe(20);
  });
});
