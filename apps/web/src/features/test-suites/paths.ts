import { paths } from "../../config/paths.ts";

/** An assistant's tests, one of its suites, or one run of that suite. */
export function testsPath(assistantId: string, suiteId?: string, runId?: string): string {
  const base = `${paths.assistants}/${assistantId}/tests`;
  if (!suiteId) return base;
  return runId ? `${base}/${suiteId}/runs/${runId}` : `${base}/${suiteId}`;
}

/** A call's log, opened in the call logs' drawer. */
export const callLogPath = (callId: string) => `${paths.callLogs}?call=${encodeURIComponent(callId)}`;
