import type { BatchCallSummary } from "@parley/contract";
import type { TFunction } from "i18next";
import { useState } from "react";
import {
  useArchiveBatchCall,
  useDeleteBatchCall,
  useInitiateBatchCall,
  useStopBatchCall,
} from "../../../api/batch-calls.ts";
import { useNotice } from "../../../lib/use-notice.ts";

/** The actions that ask first (spec §2: confirmation dialogs for delete, initiate and stop). */
export type ConfirmedAction = "delete" | "initiate" | "stop";

/**
 * A campaign's status actions with their spec §8 notices: initiate, stop and delete wait for the
 * confirmation dialog (`asking`), archive and restore act at once. Failures (the server's 409 text
 * when the campaign moved on meanwhile) are said in a notice.
 */
export function useBatchActions(t: TFunction, after?: { deleted?: () => void }) {
  const notice = useNotice();
  const [asking, setAsking] = useState<{ action: ConfirmedAction; batch: BatchCallSummary } | null>(null);
  const initiate = useInitiateBatchCall();
  const stop = useStopBatchCall();
  const archive = useArchiveBatchCall();
  const remove = useDeleteBatchCall();
  const success = (key: string) => notice.success(t(key));
  const failure = notice.failure;

  const run = async (action: ConfirmedAction, batch: BatchCallSummary) => {
    setAsking(null);
    try {
      if (action === "initiate") {
        await initiate.mutateAsync(batch.id);
        success("notices.initiated");
      } else if (action === "stop") {
        await stop.mutateAsync(batch.id);
        success("notices.stopped");
      } else {
        await remove.mutateAsync(batch.id);
        success("notices.deleted");
        after?.deleted?.();
      }
    } catch (error) {
      failure(error);
    }
  };

  const setArchived = async (batch: BatchCallSummary, archived: boolean) => {
    try {
      await archive.mutateAsync({ id: batch.id, archived });
      success(archived ? "notices.archived" : "notices.restored");
    } catch (error) {
      failure(error);
    }
  };

  return {
    asking,
    ask: (action: ConfirmedAction, batch: BatchCallSummary) => setAsking({ action, batch }),
    cancel: () => setAsking(null),
    confirm: () => (asking ? run(asking.action, asking.batch) : Promise.resolve()),
    setArchived,
    busy: initiate.isPending || stop.isPending || archive.isPending || remove.isPending,
  };
}
