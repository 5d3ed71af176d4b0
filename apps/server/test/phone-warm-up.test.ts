import { afterAll, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "./harness.ts";

/**
 * Issue 26 item 7: the first phone call of a fresh process waited seconds for its greeting while
 * the carriers' adapters and the local voice loaded. They now load once the server listens, in the
 * background: listening does not wait for them, and the operator's log says when they are ready.
 */

let t: TestApp | undefined;
afterAll(async () => {
  await t?.close();
});

it("loads what a first phone call needs after the server listens", async () => {
  t = await createTestApp();
  const info = vi.spyOn(t.ctx.calls.log, "info");
  const warmed = () => info.mock.calls.some((args) => args.includes("phone calls warmed up"));
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  // The log line carries how long the loading took; the wait is for that event, not a fixed time.
  const deadline = Date.now() + 120_000;
  while (!warmed() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(warmed()).toBe(true);
  const call = info.mock.calls.find((args) => args.includes("phone calls warmed up"));
  expect(call?.[0]).toMatchObject({ ms: expect.any(Number) });
}, 240_000);
