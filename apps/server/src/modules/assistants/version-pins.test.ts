import { describe, expect, it } from "vitest";
import type { Executor } from "../../db/client.ts";
import type { CallRequest } from "../../lib/call-runtime.ts";
import { addCallVersionPin, pinnedVersionOf } from "./version-pins.ts";

/**
 * The pins never read the database here: each answers from the request alone. The registry is the
 * process's own, so the test-suites module's pin may be in it too: it leaves these web calls be.
 */
const db = {} as Executor;
const tenant = { workspaceId: "00000000-0000-4000-8000-000000000001" };
const request = (fields: Partial<CallRequest>): CallRequest => ({
  agentId: "00000000-0000-4000-8000-000000000002",
  channel: "web",
  direction: "inbound",
  ...fields,
});

describe("version pins", () => {
  it("fix the version of the calls they own, and leave every other call to the experiment or the published version", async () => {
    const pin = async (_db: Executor, _tenant: typeof tenant, call: CallRequest) =>
      call.callerKey === "user:pinned" ? 1 : null;
    addCallVersionPin(pin);
    addCallVersionPin(pin);
    expect(await pinnedVersionOf(db, tenant, request({ callerKey: "user:pinned" }))).toBe(1);
    expect(await pinnedVersionOf(db, tenant, request({ callerKey: "user:other" }))).toBeNull();
    expect(await pinnedVersionOf(db, tenant, request({}))).toBeNull();
  });
});
