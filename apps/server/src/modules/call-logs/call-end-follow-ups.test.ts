import { randomUUID } from "node:crypto";
import type { Assistant } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signedInUser, type TestApp } from "../../../test/harness.ts";
import { createAssistant } from "../../../test/support/calls.ts";
import { type EndedCall, followCallEnds } from "./call-end-follow-ups.ts";

let t: TestApp;
let ended: (callId: string) => EndedCall;

beforeAll(async () => {
  t = await createTestApp();
  const user = await signedInUser(t);
  const agentId = await createAssistant(t, user.token, {});
  ended = (callId) => ({
    workspaceId: user.workspaceId,
    callId,
    agentId,
    channel: "web",
    status: "completed",
    durationSeconds: 3,
  });
  // Load-proof: opening a database and running every migration is slow on a busy machine.
}, 240_000);

afterAll(async () => {
  await t.close();
});

const gate = () => {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
};

describe("a call's end followed up", () => {
  it("one ended call at a time, each follow-up given the call's assistant", async () => {
    const steps: string[] = [];
    const first = gate();
    const assistants: (Assistant | undefined)[] = [];
    const stop = followCallEnds(t.ctx, {
      async run(call, assistant) {
        assistants.push(assistant);
        steps.push(`start ${call.callId}`);
        if (call.callId === "a") await first.opened;
        steps.push(`end ${call.callId}`);
      },
      onError: (error) => {
        throw error;
      },
    });
    try {
      t.ctx.events.emit("call.ended", { ...ended(randomUUID()), callId: "a" });
      t.ctx.events.emit("call.ended", { ...ended(randomUUID()), callId: "b" });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(steps).toEqual(["start a"]);
      first.open();
      expect(await t.ctx.events.settled(10_000)).toBe(true);
      expect(steps).toEqual(["start a", "end a", "start b", "end b"]);
      expect(assistants.map((a) => a?.name)).toEqual(["Front desk", "Front desk"]);
    } finally {
      stop();
    }
  });

  it("reports a failing follow-up to its own handler, and the call's other follow-ups still run", async () => {
    const failures: string[] = [];
    const ran: string[] = [];
    const stopFailing = followCallEnds(t.ctx, {
      run: async () => {
        throw new Error("receiver down");
      },
      onError: (error, call) => failures.push(`${call.callId}: ${(error as Error).message}`),
    });
    const stopNext = followCallEnds(t.ctx, {
      run: async (call) => {
        ran.push(call.callId);
      },
      onError: (error) => {
        throw error;
      },
    });
    try {
      const call = ended(randomUUID());
      t.ctx.events.emit("call.ended", call);
      expect(await t.ctx.events.settled(10_000)).toBe(true);
      expect(failures).toEqual([`${call.callId}: receiver down`]);
      expect(ran).toEqual([call.callId]);
    } finally {
      stopFailing();
      stopNext();
    }
  });
});
