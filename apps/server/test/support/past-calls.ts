import { createCallLog, finishCallLog } from "../../src/modules/call-logs/service.ts";
import type { TestApp } from "../harness.ts";

/** What a call leaves in which nothing was said, used or recorded: only its minutes count. */
const NOTHING_SAID = {
  cost: 0,
  costBreakdown: null,
  recordingPath: null,
  transcript: [],
  toolCalls: [],
  turnMetrics: [],
  events: [],
};

/**
 * A web call of `seconds` to the assistant that has already ended in the workspace, written through
 * the call-log service as a finished call leaves it: minutes the plan has used this month.
 */
export async function recordPastCall(t: TestApp, workspaceId: string, agentId: string, seconds: number) {
  const tenant = { workspaceId };
  const log = await createCallLog(t.ctx.db, tenant, { agentId, agentName: "A", channel: "web", direction: "inbound" });
  await finishCallLog(t.ctx.db, tenant, log.id, {
    durationSeconds: seconds,
    status: "completed",
    endReason: "caller_hangup",
    endedAt: new Date(),
    ...NOTHING_SAID,
  });
}
