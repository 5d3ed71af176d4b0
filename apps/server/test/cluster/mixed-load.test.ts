import { describe, expect, it } from "vitest";
import type { CallerResult } from "../support/cluster-callers.ts";
import { failedStart, phoneFrom, sipFrom, spreadOf, useCluster, watchReadiness } from "../support/cluster-fixture.ts";
import { allCallLogs, closed, spread } from "../support/cluster-world.ts";
import { until } from "../support/until.ts";

/**
 * Issue 28 acceptance 1: three nodes behind HAProxy and Kamailio take 30 browser calls, 10 Twilio
 * media-stream calls and 10 SIP calls at once, spread over all three. Every caller hears the
 * assistant, stays on, and hangs up itself; every call is logged once, completed, on its caller's
 * hang-up. Providers are local (espeak voice, scripted model on 127.0.0.1).
 */

const WEB = 30;
const PHONE = 10;
const SIP = 10;
/** How long each caller stays on after the assistant's first sound. */
const HOLD_MS = 8_000;
/** Calls are started this far apart (a burst, not one instant: 50 espeak greetings on 2 cores). */
const STAGGER_MS = 300;

const world = useCluster("parley_cluster_mixed");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("three nodes behind HAProxy and Kamailio", () => {
  it("answer 30 browser, 10 Twilio and 10 SIP calls spread over all three, each logged once and ended by its caller", {
    timeout: 600_000,
  }, async () => {
    const hold = { holdMs: HOLD_MS, answerTimeoutMs: 120_000 };
    // Interleaved so every kind starts while the others run.
    const plan: (() => Promise<CallerResult>)[] = [];
    for (let i = 0; i < WEB; i += 1) {
      plan.push(() =>
        world.web({ ...hold, say: "Tell me about your opening hours" }).catch((e) => failedStart("web", `web-${i}`, e)),
      );
      const phone = phoneFrom(i / 3);
      if (i % 3 === 0 && i / 3 < PHONE)
        plan.push(() => world.phone(phone, hold).catch((e) => failedStart("phone", phone, e)));
      const sip = sipFrom((i - 1) / 3);
      if (i % 3 === 1 && (i - 1) / 3 < SIP)
        plan.push(() => world.sip(sip, hold).catch((e) => failedStart("sip", sip, e)));
    }
    const readiness = watchReadiness(world.cluster);
    const started = performance.now();
    const results = await Promise.all(
      plan.map(async (run, i) => {
        await sleep(i * STAGGER_MS);
        return run();
      }),
    );
    const wallMs = Math.round(performance.now() - started);
    console.log(`readiness during the load: ${await readiness.stop()}`);
    const table = spreadOf(results);
    console.log(`50 calls in ${wallMs} ms; per node and channel: ${JSON.stringify(table)}`);
    console.log(`longest audio gap per call: ${spread(results.map((r) => r.longestGapMs))}`);

    const cut = results.filter((r) => r.cut !== null);
    expect(cut, JSON.stringify(cut, null, 1)).toEqual([]);
    expect(results.filter((r) => r.channel === "web")).toHaveLength(WEB);
    expect(results.filter((r) => r.channel === "phone")).toHaveLength(PHONE);
    expect(results.filter((r) => r.channel === "sip")).toHaveLength(SIP);
    // HAProxy and Kamailio's dispatcher both go round-robin: browser and SIP calls land on every node.
    // A Twilio call's node is the one its voice webhook reached, in HAProxy's rotation among the
    // browser calls' requests: spread, but not necessarily over all three in ten calls.
    for (const node of world.cluster.nodes) {
      for (const channel of ["web", "sip"]) {
        expect(table[node.id]?.[channel] ?? 0, `${channel} calls on ${node.id}`).toBeGreaterThan(0);
      }
    }
    expect(new Set(results.filter((r) => r.channel === "phone").map((r) => r.node)).size).toBeGreaterThan(1);

    const logs = await until(
      () => allCallLogs(world.workspace.api),
      (list) => list.length >= WEB + PHONE + SIP && list.every(closed),
      "every call's log to close",
      120_000,
    );
    expect(logs).toHaveLength(WEB + PHONE + SIP);
    expect(new Set(logs.map((l) => l.id)).size).toBe(WEB + PHONE + SIP);
    for (const r of results) {
      const mine = logs.filter((l) =>
        r.channel === "web" ? l.id === r.callId : l.channel === r.channel && l.from_number === r.key,
      );
      expect(mine, `${r.channel} ${r.key}`).toHaveLength(1);
      expect(mine[0], `${r.channel} ${r.key}`).toMatchObject({ status: "completed", end_reason: "caller_hangup" });
    }
  });
});
