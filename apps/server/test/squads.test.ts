import type { Squad } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { insertPhoneNumber } from "../src/modules/phone-numbers/service.ts";
import { call, signedInUser, useTestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";

/** Squads' API (issue 31): CRUD with the workspace's tenant checks and the squad's own rules. */

const t = useTestApp();

async function twoAssistants(token: string) {
  const receptionist = await createAssistant(t, token, { name: "Receptionist" });
  const billing = await createAssistant(t, token, { name: "Billing" });
  return { receptionist, billing };
}

const squadBody = (ids: { receptionist: string; billing: string }) => ({
  name: "Front office",
  members: [
    { assistant_id: ids.receptionist, name: "receptionist", first: true },
    { assistant_id: ids.billing, name: "billing" },
  ],
  handoffs: [
    { from: "receptionist", to: "billing", description: "The caller asks about an invoice or a payment." },
    { from: "billing", to: "receptionist", description: "The caller's billing question is answered." },
  ],
  context: { mode: "summary" },
  bridge_line: "Let me pass you to a colleague.",
});

describe("squads API", () => {
  it("creates, reads, lists, replaces and deletes a squad", async () => {
    const user = await signedInUser(t);
    const ids = await twoAssistants(user.token);
    const created = await call(t, "POST", "/api/v1/squads", { token: user.token, body: squadBody(ids) });
    expect(created.statusCode, created.body).toBe(201);
    const squad = created.json<Squad>();
    expect(squad).toMatchObject({
      name: "Front office",
      max_handoffs: 5,
      context: { mode: "summary", variables: [] },
      bridge_line: "Let me pass you to a colleague.",
    });
    expect(squad.members[1]).toEqual({ assistant_id: ids.billing, name: "billing", first: false });
    expect(squad.handoffs[0]).toMatchObject({ context: null, bridge_line: null });

    const list = await call(t, "GET", "/api/v1/squads", { token: user.token });
    expect(list.json<{ total: number }>().total).toBe(1);

    const replaced = await call(t, "PUT", `/api/v1/squads/${squad.id}`, {
      token: user.token,
      body: { ...squadBody(ids), name: "Desk", max_handoffs: 2 },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json<Squad>()).toMatchObject({ name: "Desk", max_handoffs: 2 });

    const dup = await call(t, "POST", "/api/v1/squads", {
      token: user.token,
      body: { ...squadBody(ids), name: "Desk" },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<{ detail: string }>().detail).toBe('A squad named "Desk" already exists.');

    const deleted = await call(t, "DELETE", `/api/v1/squads/${squad.id}`, { token: user.token });
    expect(deleted.json()).toEqual({ message: "Squad deleted." });
    expect((await call(t, "GET", `/api/v1/squads/${squad.id}`, { token: user.token })).statusCode).toBe(404);
  });

  it("refuses a squad that breaks its rules, naming the field", async () => {
    const user = await signedInUser(t);
    const ids = await twoAssistants(user.token);
    const body = squadBody(ids);
    const bad = await call(t, "POST", "/api/v1/squads", {
      token: user.token,
      body: {
        ...body,
        members: body.members.map((m) => ({ ...m, first: true })),
        handoffs: [...body.handoffs, { from: "billing", to: "closer", description: "Sell." }],
      },
    });
    expect(bad.statusCode).toBe(422);
    const errors = bad.json<{ errors: { field: string; message: string }[] }>().errors;
    expect(errors).toContainEqual(expect.objectContaining({ message: "Exactly one member must answer first." }));
    expect(errors).toContainEqual(
      expect.objectContaining({ field: "handoffs.2.to", message: '"closer" is not a member of the squad.' }),
    );
  });

  it("keeps squads and their members inside the workspace", async () => {
    const owner = await signedInUser(t);
    const other = await signedInUser(t);
    const ids = await twoAssistants(owner.token);
    const created = await call(t, "POST", "/api/v1/squads", { token: owner.token, body: squadBody(ids) });
    const id = created.json<Squad>().id;
    for (const [method, body] of [["GET"], ["PUT", squadBody(ids)], ["DELETE"]] as const) {
      const res = await call(t, method, `/api/v1/squads/${id}`, { token: other.token, body });
      expect(res.statusCode, `${method} ${res.body}`).toBe(404);
    }
    // Another workspace's assistants read as missing members.
    const theirs = await call(t, "POST", "/api/v1/squads", { token: other.token, body: squadBody(ids) });
    expect(theirs.statusCode).toBe(422);
    expect(theirs.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe("members.0.assistant_id");
  });

  it("lets a number and a campaign call with the workspace's squad, and refuses another's", async () => {
    const user = await signedInUser(t);
    const other = await signedInUser(t);
    const ids = await twoAssistants(user.token);
    const squad = (await call(t, "POST", "/api/v1/squads", { token: user.token, body: squadBody(ids) })).json<Squad>();
    const theirs = await twoAssistants(other.token);
    const otherSquad = (
      await call(t, "POST", "/api/v1/squads", { token: other.token, body: squadBody(theirs) })
    ).json<Squad>();
    const number = await insertPhoneNumber(
      t.ctx.db,
      { workspaceId: user.workspaceId },
      { number: "+14155550177", provider: "twilio", agentId: ids.receptionist },
    );
    const both = await call(t, "PATCH", `/api/v1/phone-numbers/${number.id}`, {
      token: user.token,
      body: { agent_id: ids.billing, squad_id: squad.id },
    });
    expect(both.statusCode).toBe(422);
    const pointed = await call(t, "PATCH", `/api/v1/phone-numbers/${number.id}`, {
      token: user.token,
      body: { squad_id: squad.id },
    });
    expect(pointed.json()).toMatchObject({ squad_id: squad.id, squad_name: "Front office", agent_id: null });
    const foreign = await call(t, "PATCH", `/api/v1/phone-numbers/${number.id}`, {
      token: user.token,
      body: { squad_id: otherSquad.id },
    });
    expect(foreign.statusCode).toBe(404);

    const campaign = (squadId: string) =>
      call(t, "POST", "/api/v1/batch-calls", {
        token: user.token,
        body: { name: "Invoices", from_phone_number_id: number.id, squad_id: squadId, phone_numbers: [] },
      });
    const created = await campaign(squad.id);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ squad_id: squad.id, agent_id: null });
    const refused = await campaign(otherSquad.id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ detail: string }>().detail).toBe("Squad not found.");
  });
});
