import { AdminNodesResponse } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { keepCalling, spreadOf, useCluster, watchNodeCpuWaits } from "../support/cluster-fixture.ts";
import {
  allCallLogs,
  closed,
  deliveries,
  documentsOf,
  longText,
  spread,
  uploadDocument,
} from "../support/cluster-world.ts";
import { until } from "../support/until.ts";

/**
 * Issue 28 acceptance 2: a rolling restart of all three nodes under load drops no call and no job.
 * Browser, Twilio and SIP callers keep calling (each stays 10–25 s and hangs up itself) while each
 * node in turn gets SIGTERM, drains (its calls run to their callers' hang-ups: DRAIN_TIMEOUT is long),
 * exits and starts again. Knowledge documents are uploaded while each node drains, and every call
 * and document is announced by webhook (call.ended, document.ready): jobs that must each run once.
 */

/** Sound must keep coming: no stretch without an audio frame longer than this once the assistant was heard. */
const MAX_GAP_MS = 1_000;
const LINES = { web: 6, phone: 2, sip: 2 };
const DOCUMENTS_PER_RESTART = 2;

const world = useCluster("parley_cluster_rolling", { DRAIN_TIMEOUT: "600s" });

describe("a rolling restart of three nodes under load", () => {
  it("cuts no call, answers every new call on the nodes that are up, and runs every job once", {
    timeout: 1_500_000,
  }, async () => {
    const { cluster, workspace, doubles } = world;
    const cpuWaits = watchNodeCpuWaits(cluster);
    const load = keepCalling(world, LINES, () => 10_000 + Math.floor(Math.random() * 15_000));
    const documents: string[] = [];
    const figures: string[] = [];
    /** What the cluster was doing when (performance.now()), to place a gap. */
    const phases: { at: number; what: string }[] = [{ at: 0, what: "all nodes up" }];
    const phaseAt = (at: number) => phases.findLast((p) => p.at <= at)?.what ?? "before";
    // Calls on every node before the first restart.
    await until(
      async () => load.finished.length,
      (n) => n >= 10,
      "the first calls to finish",
      300_000,
    );
    for (const node of cluster.nodes) {
      const nodes = AdminNodesResponse.parse((await workspace.api("GET", "/admin/nodes")).body).nodes;
      const activeCalls = nodes.find((n) => n.id === node.id)?.active_calls ?? 0;
      const startedBefore = load.started();
      const stopAt = Date.now();
      phases.push({ at: performance.now(), what: `${node.id} draining` });
      const stopping = cluster.stopNode(node.id, "SIGTERM");
      // Jobs enqueued while the node drains: whichever node claims them must finish them once.
      for (let i = 0; i < DOCUMENTS_PER_RESTART; i += 1) {
        const name = `${node.id}-${i}`;
        documents.push(await uploadDocument(cluster.url, workspace.token, `${name}.txt`, longText(name, 200)));
      }
      const exit = await stopping;
      const drainMs = Date.now() - stopAt;
      expect(exit, `${node.id} exit`).toEqual({ code: 0, signal: null });
      const output = node.output();
      expect(output, `${node.id} drained`).toContain("drained: no call is running");
      expect(output).not.toContain("drain timeout reached");
      const startAt = Date.now();
      phases.push({ at: performance.now(), what: `${node.id} starting` });
      await cluster.startNode(node.id);
      phases.push({ at: performance.now(), what: "all nodes up" });
      figures.push(
        `${node.id}: ${activeCalls} calls at SIGTERM (admin view, up to 5 s old), drained and exited in ${drainMs} ms, back up in ${Date.now() - startAt} ms; ${load.started() - startedBefore} calls started meanwhile`,
      );
    }
    const results = await load.stop();
    cpuWaits.stop();
    /** The gap less the longer of: this process starved of CPU, the call's node waiting for one. */
    const ownGap = (r: (typeof results)[number]) =>
      r.longestGapMs -
      Math.max(r.gapStarvedMs, r.node ? cpuWaits.waitedMs(r.node, r.gapAt, r.gapAt + r.longestGapMs) : 0);
    console.log(`rolling restart:\n  ${figures.join("\n  ")}`);
    console.log(`${results.length} calls; per node and channel: ${JSON.stringify(spreadOf(results))}`);
    console.log(
      `longest audio gap per call: ${spread(results.map((r) => r.longestGapMs))}; less the CPU the caller or its node waited for: ${spread(results.map(ownGap))}`,
    );

    const cut = results.filter((r) => r.cut !== null);
    expect(cut, JSON.stringify(cut, null, 1)).toEqual([]);
    for (const channel of ["web", "phone", "sip"]) {
      expect(results.filter((r) => r.channel === channel).length, channel).toBeGreaterThan(0);
    }

    const logs = await until(
      () => allCallLogs(workspace.api),
      (list) => list.length >= results.length && list.every(closed),
      "every call's log to close",
      120_000,
    );
    expect(logs).toHaveLength(results.length);
    for (const r of results) {
      const mine = logs.filter((l) =>
        r.channel === "web" ? l.id === r.callId : l.channel === r.channel && l.from_number === r.key,
      );
      expect(mine, `${r.channel} ${r.key}`).toHaveLength(1);
      expect(mine[0], `${r.channel} ${r.key}`).toMatchObject({ status: "completed", end_reason: "caller_hangup" });
    }

    // Every document processed to ready, every job announced once.
    const docs = await until(
      () => documentsOf(workspace.api, documents),
      (list) => list.every((d) => d.status === "ready" || d.status === "failed"),
      "every document to settle",
      300_000,
    );
    expect(docs.map((d) => [d.id, d.status])).toEqual(documents.map((id) => [id, "ready"]));
    const callIds = logs.map((l) => l.id).sort();
    await until(
      async () => new Set(deliveries(doubles.hooks, "call.ended").map((d) => d.subject)).size,
      (n) => n >= callIds.length,
      "a call.ended delivery for every call",
      180_000,
    );
    await until(
      async () => new Set(deliveries(doubles.hooks, "document.ready").map((d) => d.subject)).size,
      (n) => n >= documents.length,
      "a document.ready delivery for every document",
      180_000,
    );
    // A repeat would come from a job run twice: give one a moment to show, by the jobs' poll.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const ended = deliveries(doubles.hooks, "call.ended");
    expect(ended.map((d) => d.subject).sort()).toEqual(callIds);
    expect(new Set(ended.map((d) => d.deliveryId)).size).toBe(ended.length);
    const ready = deliveries(doubles.hooks, "document.ready");
    expect(ready.map((d) => d.subject).sort()).toEqual([...documents].sort());

    // Each caller's audio went on to its own hang-up: no stretch without a frame over the bound, less
    // the time the caller's process or the call's node waited for a CPU (the machine, not the call).
    const gaps = results
      .filter((r) => ownGap(r) > MAX_GAP_MS)
      .map((r) => ({
        ...r,
        during: phaseAt(r.gapAt),
        nodeWaitedMs: r.node ? cpuWaits.waitedMs(r.node, r.gapAt, r.gapAt + r.longestGapMs) : null,
      }));
    expect(gaps, JSON.stringify(gaps, null, 1)).toEqual([]);
  });
});
