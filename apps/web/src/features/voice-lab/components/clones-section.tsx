import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { CLONE_SERVICES, providerLabel, type VoiceClone } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useClones, useCreateClone, useDeleteClone } from "../../../api/clones.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import type { CloneFormOutput } from "./clone-form.ts";
import { CloneVoiceDialog } from "./clone-voice-dialog.tsx";
import { ClonesTable } from "./clones-table.tsx";

/** The workspace's voice clones: list, create from audio samples, delete, or try one in the panel. */
export function ClonesSection({ onTry }: { onTry: (clone: VoiceClone) => void }) {
  const { t, i18n } = useTranslation(["voice-lab", "translation"], { nsMode: "fallback" });
  // The vendors that clone, named in the interface language ("A or B").
  const providers = new Intl.ListFormat(i18n.language, { type: "disjunction" }).format(
    CLONE_SERVICES.map(providerLabel),
  );
  const notice = useNotice();
  const clones = useClones();
  const createClone = useCreateClone();
  const deleteClone = useDeleteClone();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<VoiceClone | null>(null);

  const create = async (fields: CloneFormOutput, files: File[]) => {
    // A failure is thrown back to the dialog, which keeps what was entered and shows why.
    const clone = await createClone.mutateAsync({ fields, files });
    notice.success(t("clone.created", { name: clone.name }));
    setCreating(false);
  };

  const remove = (clone: VoiceClone) => {
    setDeleting(null);
    deleteClone.mutate(clone, {
      onSuccess: () => notice.success(t("clones.deleted", { name: clone.name })),
      onError: notice.failureWith(t("clones.deleteFailed")),
    });
  };

  const newButton = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
      {t("clone.open")}
    </Button>
  );

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="clones-title">
      <Stack
        direction={{ xs: "column", sm: "row" }}
        spacing={2}
        sx={{ mb: 2, justifyContent: "space-between", alignItems: { sm: "center" } }}
      >
        <div>
          <Typography variant="h6" component="h2" id="clones-title">
            {t("clones.title")}
          </Typography>
          <Typography color="text.secondary">{t("clones.subtitle", { providers })}</Typography>
        </div>
        {clones.data && clones.data.length > 0 && newButton}
      </Stack>
      <ClonesTable
        clones={clones}
        empty={
          <EmptyState title={t("clones.emptyTitle")} hint={t("clones.emptyHint", { providers })} action={newButton} />
        }
        onAction={(action, clone) => (action === "try" ? onTry(clone) : setDeleting(clone))}
      />
      {creating && <CloneVoiceDialog onClose={() => setCreating(false)} onSubmit={create} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t("clones.deleteTitle")}
        text={t("clones.deleteText", { name: deleting?.name ?? "" })}
        confirmLabel={t("clones.delete")}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove(deleting)}
      />
    </Paper>
  );
}
