import { CallerBehaviours } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { interruptAfter, splitInHalves, turnActions } from "./caller-turns.ts";
import { spokenWords } from "./persona-model.ts";

describe("a caller's turn plan", () => {
  const behaviours = CallerBehaviours.parse({
    dtmf: [
      { turn: 2, digits: "1" },
      { turn: 2, digits: "#" },
      { turn: 3, digits: "5" },
    ],
    silent_turns: [3],
    speaks_over_turns: [4],
    interrupt_after_ms: 900,
  });

  it("joins a turn's key presses in order; a silent turn presses nothing", () => {
    expect(turnActions(behaviours, 1)).toEqual({ dtmf: "", silent: false });
    expect(turnActions(behaviours, 2)).toEqual({ dtmf: "1#", silent: false });
    expect(turnActions(behaviours, 3)).toEqual({ dtmf: "", silent: true });
  });

  it("cuts in only on speaks-over turns", () => {
    expect(interruptAfter(behaviours, 4)).toBe(900);
    expect(interruptAfter(behaviours, 2)).toBeNull();
  });

  it("splits a line at the word boundary nearest its middle", () => {
    expect(splitInHalves("my order number is")).toEqual(["my order", "number is"]);
    expect(splitInHalves("extraordinarily long and short")).toEqual(["extraordinarily", "long and short"]);
    expect(splitInHalves("  two   words ")).toEqual(["two", "words"]);
    expect(splitInHalves("one")).toEqual(["one"]);
  });
});

describe("a persona's spoken words", () => {
  it("drops stage directions and wrapping quotes", () => {
    expect(spokenWords('"Hi there."')).toBe("Hi there.");
    expect(spokenWords("*sighs* Fine. [laughs] Thanks.")).toBe("Fine. Thanks.");
    expect(spokenWords("*hangs up*")).toBe("");
  });
});
