import { BatchCall, type CallLogSummary } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { numbers } from "../batch-calls/world.ts";
import { keylessAssistant } from "../support/assistant-fields.ts";
import type { CallerResult } from "../support/cluster-callers.ts";
import { phoneFrom, sipFrom, spreadOf, useCluster } from "../support/cluster-fixture.ts";
import {
  allCallLogs,
  closed,
  documentsOf,
  expectOk,
  GREETING,
  longText,
  uploadDocument,
} from "../support/cluster-world.ts";
import { createAssistantOn } from "../support/server-process.ts";
import { until } from "../support/until.ts";

/**
 * Issue 28 acceptance 3: kill -9 of one node of three while a campaign dials through the Twilio
 * double, documents are being processed, and browser, Twilio and SIP callers talk on every node.
 * The campaign completes with one call per contact, every document ends ready, the dead node's calls
 * are closed as failed/server_crash by the others (within the stale bound: 35 s without heartbeat,
 * swept every 10 s), and calls placed right after the kill are answered by the live nodes.
 */

const VICTIM = "node-2";
const CONTACTS = numbers(12, 70_000);
const DOCUMENTS = 6;
/** The callers that span the kill stay this long (those on the victim are cut by it). */
const LONG_HOLD_MS = 60_000;

const world = useCluster("parley_cluster_loss");
const finished = (b: BatchCall) => ["completed", "failed", "partial", "cancelled"].includes(b.status);
const logOf = (logs: CallLogSummary[], r: CallerResult) =>
  logs.filter((l) => (r.channel === "web" ? l.id === r.callId : l.channel === r.channel && l.from_number === r.key));

describe("a node killed with kill -9 under calls, a campaign and document processing", () => {
  it("loses no campaign contact or document, closes its calls as server_crash, and new calls go to the live nodes", {
    timeout: 900_000,
  }, async () => {
    const { cluster, workspace, doubles } = world;
    const { api } = workspace;
    // Campaign calls: answered at the double, the assistant greets, and the call ends at 15 s.
    doubles.twilio.setOutbound({ outcome: "answer", ringMs: 300 });
    const campaignAgent = await createAssistantOn(api, {
      name: "Campaign desk",
      first_message: GREETING,
      first_speaker: "assistant",
      ...keylessAssistant(doubles.llm.baseUrl),
      max_call_duration: 15,
    });
    expectOk(
      await api("PATCH", `/phone-numbers/${workspace.twilioNumberId}`, { outbound_agent_id: campaignAgent }),
      "pointing the number's outbound calls at the campaign assistant",
    );

    // Callers on every node that stay through the kill.
    const long = { holdMs: LONG_HOLD_MS, answerTimeoutMs: 120_000 };
    const spanning = [
      ...Array.from({ length: 6 }, () => world.web(long)),
      ...Array.from({ length: 3 }, (_, i) => world.phone(phoneFrom(i), long)),
      ...Array.from({ length: 3 }, (_, i) => world.sip(sipFrom(i), long)),
    ];
    const created = expectOk(
      await api("POST", "/batch-calls", {
        name: "Across a node loss",
        from_phone_number_id: workspace.twilioNumberId,
        phone_numbers: CONTACTS,
        concurrency: 4,
      }),
      "creating the campaign",
    );
    const campaignId = BatchCall.pick({ id: true }).parse(created).id;
    expectOk(await api("POST", `/initiate_batch_call?batch_call_id=${campaignId}`), "starting the campaign");
    const documents: string[] = [];
    for (let i = 0; i < DOCUMENTS; i += 1) {
      documents.push(await uploadDocument(cluster.url, workspace.token, `loss-${i}.txt`, longText(`loss-${i}`, 2_000)));
    }
    const outbound = () => [...doubles.twilio.calls.values()].filter((c) => c.direction === "outbound");
    // Mid-way: some campaign calls placed, and calls running on the victim.
    await until(
      async () => outbound().length,
      (n) => n >= 4,
      "the campaign's first calls",
      300_000,
    );
    await until(
      async () => (await allCallLogs(api)).filter((l) => l.status === "in_progress").length,
      (n) => n >= 12,
      "the spanning calls to be running",
      300_000,
    );
    const inProgressAtKill = (await allCallLogs(api)).filter((l) => l.status === "in_progress").map((l) => l.id);
    const docsAtKill = await documentsOf(api, documents);

    const killedAt = Date.now();
    const exit = await cluster.stopNode(VICTIM, "SIGKILL");
    // When each call running at the kill was closed, and how (read every 500 ms).
    const closedAfter = new Map<string, { ms: number; how: string }>();
    let watching = true;
    const closeWatch = (async () => {
      while (watching) {
        for (const l of await allCallLogs(api).catch(() => [])) {
          if (inProgressAtKill.includes(l.id) && closed(l) && !closedAfter.has(l.id))
            closedAfter.set(l.id, { ms: Date.now() - killedAt, how: `${l.status}/${l.end_reason}` });
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    expect(exit.signal).toBe("SIGKILL");

    // How long the proxies take to see it gone, watched while the new calls are placed.
    const seenGone = Promise.all([
      until(
        () => cluster.balancerState(VICTIM),
        (s) => s.startsWith("DOWN"),
        "HAProxy to mark the victim DOWN",
        60_000,
      ).then(() => Date.now() - killedAt),
      until(
        () => cluster.dispatcherState(VICTIM),
        (s) => s !== "active",
        "Kamailio to take the victim out",
        60_000,
      ).then(() => Date.now() - killedAt),
    ]);
    // Right after the kill: new calls of every kind are answered, by live nodes only.
    const fresh = await Promise.all([
      ...Array.from({ length: 3 }, () => world.web({ holdMs: 3_000 })),
      ...Array.from({ length: 2 }, (_, i) => world.phone(phoneFrom(100 + i), { holdMs: 3_000 })),
      ...Array.from({ length: 3 }, (_, i) => world.sip(sipFrom(100 + i), { holdMs: 3_000 })),
    ]);
    const freshMs = Date.now() - killedAt;
    const [haproxyDownMs, kamailioOutMs] = await seenGone;
    expect(fresh.filter((r) => r.cut !== null)).toEqual([]);
    expect(fresh.filter((r) => r.node === VICTIM)).toEqual([]);

    // The victim's calls: closed by the others as failed / server_crash.
    const spanningResults = await Promise.all(spanning);
    const onVictim = spanningResults.filter((r) => r.node === VICTIM);
    const survivors = spanningResults.filter((r) => r.node !== VICTIM);
    expect(onVictim.length, JSON.stringify(spreadOf(spanningResults))).toBeGreaterThan(0);
    const crashClosed = await until(
      () => allCallLogs(api),
      (logs) => onVictim.every((r) => logOf(logs, r).every(closed)),
      "the victim's calls to be closed",
      180_000,
    );
    watching = false;
    await closeWatch;
    const crashMs = Math.max(
      ...[...closedAfter.values()].filter((c) => c.how === "failed/server_crash").map((c) => c.ms),
    );
    for (const r of onVictim) {
      expect(logOf(crashClosed, r)[0], `${r.channel} ${r.key} on ${VICTIM}`).toMatchObject({
        status: "failed",
        end_reason: "server_crash",
      });
    }
    expect(survivors.filter((r) => r.cut !== null)).toEqual([]);

    // The campaign completes with one call per contact; every document ends ready.
    const done = await until(
      async () => BatchCall.parse(expectOk(await api("GET", `/batch-calls/${campaignId}`), "campaign")),
      finished,
      "the campaign to finish",
      600_000,
    );
    for (const contact of CONTACTS)
      expect(
        outbound().filter((c) => c.to === contact),
        contact,
      ).toHaveLength(1);
    expect(done.phone_numbers.every((c) => c.attempts === 1)).toBe(true);
    const docs = await until(
      () => documentsOf(api, documents),
      (list) => list.every((d) => d.status === "ready" || d.status === "failed"),
      "every document to settle",
      300_000,
    );
    expect(docs.map((d) => d.status)).toEqual(documents.map(() => "ready"));

    const logs = await until(
      () => allCallLogs(api),
      (list) => list.every(closed),
      "every call log to close",
      180_000,
    );
    const reasons: Record<string, number> = {};
    for (const l of logs.filter((x) => inProgressAtKill.includes(x.id)))
      reasons[`${l.status}/${l.end_reason}`] = (reasons[`${l.status}/${l.end_reason}`] ?? 0) + 1;
    console.log(
      [
        `kill -9 of ${VICTIM}: ${onVictim.length} of the spanning callers were on it (${JSON.stringify(spreadOf(spanningResults))})`,
        `documents at the kill: ${JSON.stringify(docsAtKill.map((d) => d.status))}`,
        `8 new calls placed at the kill all answered by live nodes (the last hung up ${freshMs} ms after the kill)`,
        `HAProxy marked ${VICTIM} DOWN ${haproxyDownMs} ms after the kill, Kamailio's dispatcher took it out after ${kamailioOutMs} ms`,
        `the victim's calls were closed as server_crash by the live nodes ${crashMs} ms after the kill (stale bound 35 s + 10 s sweep)`,
        `calls running at the kill ended as ${JSON.stringify(reasons)}`,
        `campaign ${done.status}: ${JSON.stringify(done.phone_numbers.map((c) => c.last_outcome))}`,
      ].join("\n"),
    );
  });
});
