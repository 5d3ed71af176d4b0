import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import type { useBatchActions } from "../hooks/use-batch-actions.ts";

/** The question before initiating, stopping or deleting a campaign, naming it and what will happen. */
export function BatchConfirmDialog({ actions }: { actions: ReturnType<typeof useBatchActions> }) {
  const { t } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const { asking } = actions;
  const action = asking?.action ?? "delete";
  const name = asking?.batch.name ?? "";
  const total = asking?.batch.progress.total ?? 0;
  return (
    <ConfirmDialog
      open={asking !== null}
      title={t(`confirm.${action}.title`, { name })}
      text={t(`confirm.${action}.text`, { name, count: total })}
      confirmLabel={t(`confirm.${action}.button`)}
      busy={actions.busy}
      onClose={actions.cancel}
      onConfirm={() => void actions.confirm()}
    />
  );
}
