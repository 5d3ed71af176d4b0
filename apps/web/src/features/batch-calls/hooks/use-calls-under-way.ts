import type { BatchCall } from "@parley/contract";
import { useQuery } from "@tanstack/react-query";
import { BATCH_POLL_MS, batchCallKeys, fetchBatchCall, LIVE_BATCH_STATUSES } from "../../../api/batch-calls.ts";
import { useWorkspaceId } from "../../../lib/auth-context.ts";

/**
 * Whether a campaign that no longer dials by itself (stopped, completed) still has calls on the
 * line: Stop cancels the contacts not yet dialled, but calls already placed carry on and are
 * recorded as they end.
 */
export const callsUnderWay = (batch: BatchCall) =>
  batch.progress.in_progress > 0 && !LIVE_BATCH_STATUSES.includes(batch.status);

/**
 * Keeps a campaign's page reading the campaign while calls placed before Stop are still on the
 * line: the campaign's own poll ends with its live statuses, and without this the page would show
 * those contacts "Calling" until a reload. Shares the campaign's query, so the figures, the status
 * and the first page of contacts all follow.
 */
export function useCallsUnderWay(batch: BatchCall): void {
  const workspaceId = useWorkspaceId();
  const underWay = callsUnderWay(batch);
  useQuery({
    queryKey: batchCallKeys.detail(workspaceId, batch.id),
    queryFn: () => fetchBatchCall(batch.id),
    enabled: underWay,
    refetchInterval: underWay ? BATCH_POLL_MS : false,
  });
}
