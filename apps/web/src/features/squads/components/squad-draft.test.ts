import { describe, expect, it } from "vitest";
import { bodyOf, draftOf, memberNameOf } from "./squad-draft.ts";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";

describe("the squad editor's draft", () => {
  it("suggests a member's tool name from its assistant's name", () => {
    expect(memberNameOf("Billing Desk")).toBe("billing_desk");
    expect(memberNameOf("24/7 Support")).toBe("member_24_7_support");
  });

  it("turns rows into the request body: the first member by its row, carry-over per hand-off", () => {
    const draft = draftOf(null);
    draft.name = "Front office";
    draft.members = [
      { key: 1, assistant_id: A, name: "receptionist" },
      { key: 2, assistant_id: B, name: "billing" },
    ];
    draft.firstKey = 2;
    draft.handoffs = [{ key: 3, from: "receptionist", to: "billing", description: "Invoices.", mode: "summary" }];
    draft.bridgeLine = "  ";
    expect(bodyOf(draft)).toMatchObject({
      members: [
        { name: "receptionist", first: false },
        { name: "billing", first: true },
      ],
      handoffs: [{ from: "receptionist", to: "billing", context: { mode: "summary", variables: [] } }],
      bridge_line: null,
      max_handoffs: 5,
    });
  });

  it("throws the first broken rule with its field", () => {
    const draft = draftOf(null);
    draft.name = "Solo";
    draft.members = [{ key: 1, assistant_id: A, name: "Bad Name" }];
    draft.firstKey = 1;
    expect(() => bodyOf(draft)).toThrow(/^members\.0\.name: /);
  });
});
