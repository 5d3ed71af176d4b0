import { describe, expect, it } from "vitest";
import type { Executor } from "../../db/client.ts";
import type { CallRequest } from "../../lib/call-runtime.ts";
import { addCallVersionPin, pinnedVersionOf } from "./version-pins.ts";

/** The pins never read the database here: each answers from the request alone. */
const db = {} as Executor;
const tenant = { workspaceId: "00000000-0000-4000-8000-000000000001" };
const request = (fields: Partial<CallRequest>): CallRequest => ({
  agentId: "00000000-0000-4000-8000-000000000002",
  channel: "browser",
  direction: "inbound",
  ...fields,
});

describe("version pins", () => {
  it("fix the version of the calls they own, and leave every other call to the experiment or the published version", async () => {
    const testRun = async (_db: Executor, _tenant: typeof tenant, call: CallRequest) =>
      call.channel === "test" && call.testRunId === "run-1" ? 1 : null;
    addCallVersionPin(testRun);
    addCallVersionPin(testRun);
    expect(await pinnedVersionOf(db, tenant, request({ channel: "test", testRunId: "run-1" }))).toBe(1);
    expect(await pinnedVersionOf(db, tenant, request({ channel: "test", testRunId: "run-2" }))).toBeNull();
    expect(await pinnedVersionOf(db, tenant, request({}))).toBeNull();
  });
});
