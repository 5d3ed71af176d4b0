import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { VoiceClone } from "@parley/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSnackbar } from "notistack";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { EmptyState, ListSkeleton } from "../../../components/list-placeholders.tsx";
import { clonesQuery, createClone, deleteClone } from "../api/clones-api.ts";
import { voiceLabKeys } from "../api/voices-api.ts";
import type { CloneFormOutput } from "./clone-form.ts";
import { CloneVoiceDialog } from "./clone-voice-dialog.tsx";
import { ClonesTable } from "./clones-table.tsx";

/** The workspace's voice clones: list, create from audio samples, delete, or try one in the panel. */
export function ClonesSection({ onTry }: { onTry: (clone: VoiceClone) => void }) {
  const { t } = useTranslation(["voice-lab", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const clones = useQuery(clonesQuery());
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<VoiceClone | null>(null);
  // A clone shows up in its vendor's voice list too, so both lists are refreshed.
  const refresh = (provider: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: voiceLabKeys.clones }),
      queryClient.invalidateQueries({ queryKey: voiceLabKeys.voices(provider) }),
    ]);

  const create = async (fields: CloneFormOutput, files: File[]) => {
    // A failure is thrown back to the dialog, which keeps what was entered and shows why.
    const clone = await createClone(fields, files);
    enqueueSnackbar(t("clone.created", { name: clone.name }), { variant: "success" });
    setCreating(false);
    await refresh(clone.service_name);
  };

  const remove = async (clone: VoiceClone) => {
    setDeleting(null);
    try {
      await deleteClone(clone.id);
      enqueueSnackbar(t("clones.deleted", { name: clone.name }), { variant: "success" });
      await refresh(clone.service_name);
    } catch (error) {
      enqueueSnackbar(errorText(error, t("clones.deleteFailed")), { variant: "error" });
    }
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
          <Typography color="text.secondary">{t("clones.subtitle")}</Typography>
        </div>
        {clones.data && clones.data.length > 0 && newButton}
      </Stack>
      {clones.isPending && <ListSkeleton label={t("common.loading")} rows={2} />}
      {clones.data?.length === 0 && (
        <EmptyState title={t("clones.emptyTitle")} hint={t("clones.emptyHint")} action={newButton} />
      )}
      {clones.data && clones.data.length > 0 && (
        <ClonesTable
          clones={clones.data}
          onAction={(action, clone) => (action === "try" ? onTry(clone) : setDeleting(clone))}
        />
      )}
      {creating && <CloneVoiceDialog onClose={() => setCreating(false)} onSubmit={create} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t("clones.deleteTitle")}
        text={t("clones.deleteText", { name: deleting?.name ?? "" })}
        confirmLabel={t("clones.delete")}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      />
    </Paper>
  );
}
