import { verdictPassed } from "@parley/contract";
import { eq, inArray } from "drizzle-orm";
import { scoped } from "../../lib/tenant-scope.ts";
import type { CallFigures, CallFiguresReader } from "../assistants/call-figures.ts";
import { callLogs } from "./schema.ts";

/** Ids per query: well under the drivers' parameter limits, and a results page reads a few at most. */
const IDS_PER_QUERY = 1000;

/**
 * The ended calls' figures for experiment results (issue 30), read from their logs. Registered by
 * the call-logs routes (setCallFiguresReader): the assistants module may not read this one's table.
 */
export const readCallFigures: CallFiguresReader = async (db, tenant, callIds) => {
  const out: CallFigures[] = [];
  for (let i = 0; i < callIds.length; i += IDS_PER_QUERY) {
    const rows = await db
      .select({
        id: callLogs.id,
        analysis: callLogs.analysis,
        duration: callLogs.durationSeconds,
        endReason: callLogs.endReason,
        cost: callLogs.cost,
        turns: callLogs.turnMetrics,
      })
      .from(callLogs)
      .where(
        scoped(callLogs, tenant).where(
          inArray(callLogs.id, callIds.slice(i, i + IDS_PER_QUERY)),
          eq(callLogs.status, "completed"),
        ),
      );
    for (const row of rows)
      out.push({
        callId: row.id,
        passed: row.analysis?.success ? verdictPassed(row.analysis.success) : null,
        durationSeconds: row.duration,
        transferred: row.endReason === "transferred",
        cost: row.cost,
        latenciesMs: row.turns.flatMap((turn) => (turn.voice_to_voice_ms === null ? [] : [turn.voice_to_voice_ms])),
      });
  }
  return out;
};
