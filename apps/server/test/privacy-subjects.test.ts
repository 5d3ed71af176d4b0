import { SubjectRecords } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { createCallLog, finishCallLog } from "../src/modules/call-logs/service.ts";
import { call, signedInUser, type TestApp, useTestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { signedInMember } from "./support/workspace-members.ts";

/**
 * Issue 34, a data subject: everything one workspace holds about one phone number or email — calls
 * from or to the number (or naming the email), and do-not-call entries — for its owners only, and
 * never another workspace's.
 */

const t: TestApp = useTestApp();
type Owner = Awaited<ReturnType<typeof signedInUser>>;
const NUMBER = "+14155550123";

async function phoneCall(owner: Owner, agentId: string, from: string, said: string) {
  const tenant = { workspaceId: owner.workspaceId };
  const log = await createCallLog(t.ctx.db, tenant, {
    agentId,
    agentName: "Front desk",
    channel: "phone",
    direction: "inbound",
    fromNumber: from,
    toNumber: "+14155559999",
  });
  await finishCallLog(t.ctx.db, tenant, log.id, {
    status: "completed",
    endReason: "caller_hangup",
    endedAt: new Date(),
    durationSeconds: 30,
    cost: 0,
    costBreakdown: null,
    transcript: [{ role: "user", text: said, at_ms: 500 }],
    toolCalls: [],
    turnMetrics: [],
    events: [],
    recordingPath: null,
  });
  return log.id;
}

const find = (owner: Owner, query: string) =>
  call(t, "GET", `/api/v1/privacy/subjects?${query}`, { token: owner.token });

describe("data subjects", () => {
  it("finds a number's calls and do-not-call entry, and an email named in a transcript", async () => {
    const owner = await signedInUser(t);
    const agentId = await createAssistant(t, owner.token, {});
    const theirs = await phoneCall(owner, agentId, NUMBER, "Write to Jane.Doe@Example.com please");
    await phoneCall(owner, agentId, "+14155550999", "Someone else");
    const dnc = await call(t, "POST", "/api/v1/do-not-call", {
      token: owner.token,
      body: { phone_numbers: [NUMBER], reason: "asked" },
    });
    expect(dnc.statusCode, dnc.body).toBeLessThan(300);

    const byPhone = await find(owner, `phone=${encodeURIComponent(NUMBER)}`);
    expect(byPhone.statusCode, byPhone.body).toBe(200);
    const found = SubjectRecords.parse(byPhone.json());
    expect(found.calls.map((c) => c.id)).toEqual([theirs]);
    expect(found.calls[0]).toMatchObject({ from_number: NUMBER, has_recording: false });
    expect(found.do_not_call).toMatchObject([{ number: NUMBER, reason: "asked" }]);

    const byEmail = SubjectRecords.parse((await find(owner, "email=jane.doe%40example.com")).json());
    expect(byEmail.calls.map((c) => c.id)).toEqual([theirs]);
    expect(byEmail.do_not_call).toEqual([]);
  });

  it("asks for exactly one of phone or email, and is for the workspace's owners", async () => {
    const owner = await signedInUser(t);
    expect((await find(owner, "")).statusCode).toBe(422);
    expect((await find(owner, `phone=${NUMBER}&email=a%40b.co`)).statusCode).toBe(422);
    expect((await find(owner, "email=not-an-email")).statusCode).toBe(422);
    const member = await signedInMember(t, owner.workspaceId);
    expect((await call(t, "GET", `/api/v1/privacy/subjects?phone=${NUMBER}`, { token: member.token })).statusCode).toBe(
      403,
    );
  });

  it("never finds another workspace's records", async () => {
    const owner = await signedInUser(t);
    const other = await signedInUser(t);
    const agentId = await createAssistant(t, other.token, {});
    await phoneCall(other, agentId, NUMBER, "Hello");
    const found = SubjectRecords.parse((await find(owner, `phone=${encodeURIComponent(NUMBER)}`)).json());
    expect(found).toEqual({ calls: [], campaign_contacts: [], do_not_call: [] });
  });
});
