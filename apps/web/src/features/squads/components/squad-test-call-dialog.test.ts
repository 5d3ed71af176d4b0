import type { Squad } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { squadCallPath } from "./squad-test-call-dialog.tsx";

describe("a squad's test call", () => {
  it("opens the talk page with the member's assistant chosen and the squad to start", () => {
    const squad = {
      id: "s-1",
      members: [
        { assistant_id: "a-1", name: "receptionist", first: true },
        { assistant_id: "a-2", name: "billing", first: false },
      ],
    } as Squad;
    const [, member] = squad.members;
    if (!member) throw new Error("no member");
    expect(squadCallPath(squad, member)).toBe("/assistant?assistantId=a-2&squad=s-1&member=billing");
  });
});
