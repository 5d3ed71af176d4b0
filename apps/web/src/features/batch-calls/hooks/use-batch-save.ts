import type { BatchCall, BatchCallSummary } from "@parley/contract";
import type { TFunction } from "i18next";
import {
  useAddBatchNumbers,
  useCreateBatchCall,
  useImportBatchCsv,
  useUpdateBatchCall,
} from "../../../api/batch-calls.ts";
import { errorText } from "../../../components/error-text.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import type { BatchSave } from "../components/batch-call-dialog.tsx";
import { numbersFromText, toCreateBody, toUpdateBody } from "../forms/batch-call-form.ts";

/**
 * Saves the create/edit dialog: the campaign (with its typed numbers when new; an edit adds them, so
 * the contacts already there keep their variables), then its CSV. A refused campaign throws back to
 * the dialog; once the campaign is saved, a refused CSV is said in a notice (the campaign stays).
 */
export function useBatchSave(t: TFunction) {
  const notice = useNotice();
  const create = useCreateBatchCall();
  const update = useUpdateBatchCall();
  const add = useAddBatchNumbers();
  const importCsv = useImportBatchCsv();

  const importFile = async (batch: BatchCall, file: File | null, country: string | null) => {
    if (!file) return;
    try {
      const report = await importCsv.mutateAsync({ id: batch.id, file, defaultCountry: country });
      (report.added > 0 ? notice.success : notice.error)(
        t("notices.imported", {
          added: report.added,
          refused: report.invalid.length + report.duplicates.length,
          dnc: report.do_not_call.length,
        }),
      );
    } catch (error) {
      notice.error(t("notices.importFailed", { reason: errorText(error, t("common.failed")) }));
    }
  };

  return async (editing: BatchCallSummary | null, { values, file }: BatchSave): Promise<BatchCall> => {
    let batch: BatchCall;
    if (editing) {
      batch = await update.mutateAsync({ id: editing.id, body: toUpdateBody(values) });
      const typed = numbersFromText(values.numbers);
      if (typed.length > 0)
        await add.mutateAsync({ id: batch.id, numbers: typed, defaultCountry: batch.default_country });
    } else {
      batch = await create.mutateAsync(toCreateBody(values));
    }
    notice.success(t(editing ? "notices.updated" : "notices.created"));
    await importFile(batch, file, batch.default_country);
    return batch;
  };
}
