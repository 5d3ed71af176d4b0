import Alert from "@mui/material/Alert";
import CircularProgress from "@mui/material/CircularProgress";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import type { KnowledgeSettings } from "@parley/contract";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useKnowledgeSettings, useSaveKnowledgeSettings } from "../../../api/documents.ts";
import { errorText } from "../../../components/error-text.ts";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { menuItems } from "../../../components/menu-options.tsx";
import { useAuth } from "../../../lib/auth-context.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import {
  defaultEmbeddingsModel,
  embeddingsModelOptions,
  embeddingsProviderOf,
  embeddingsProviderOptions,
} from "./search-settings-options.ts";

/**
 * The workspace's embeddings provider and model (owners change them; members see them and why they
 * cannot), and whether this database can search by meaning at all.
 */
export function SearchSettingsDialog(props: { onClose: () => void }) {
  const { t } = useTranslation("knowledge-base");
  const notice = useNotice();
  const owner = useAuth().workspace?.role === "owner";
  const settings = useKnowledgeSettings();
  const save = useSaveKnowledgeSettings();
  // Untouched, the form shows what is saved; the first change copies it into the draft.
  const [draft, setDraft] = useState<KnowledgeSettings | null>(null);
  const saved = settings.data;
  const provider = (draft ?? saved)?.embeddings_provider ?? null;
  const model = (draft ?? saved)?.embeddings_model ?? null;
  const savedModel = provider && provider === saved?.embeddings_provider ? saved.embeddings_model : null;

  const pickProvider = (value: string) => {
    const next = embeddingsProviderOf(value);
    setDraft({
      embeddings_provider: next,
      embeddings_model:
        next && next === saved?.embeddings_provider ? saved.embeddings_model : defaultEmbeddingsModel(next),
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!owner || !saved) return;
    const body = { embeddings_provider: provider, embeddings_model: model };
    const reembeds =
      body.embeddings_provider !== null &&
      (body.embeddings_provider !== saved.embeddings_provider || body.embeddings_model !== saved.embeddings_model);
    await save.mutateAsync(body);
    notice.success(t(reembeds ? "settingsSavedReembed" : "settingsSaved"));
    props.onClose();
  };

  return (
    <FormDialog
      title={t("settingsTitle")}
      onClose={props.onClose}
      onSubmit={submit}
      // Members cannot save (the API answers 403): the button stays disabled, the reason is shown.
      busy={!owner || !saved || save.isPending}
      busySpinner={save.isPending}
    >
      {!saved ? (
        <Grid size={12} sx={{ display: "flex", justifyContent: "center" }}>
          {settings.isError ? (
            <Alert severity="error" sx={{ flex: 1 }}>
              {errorText(settings.error, t("common.failed"))}
            </Alert>
          ) : (
            <CircularProgress aria-label={t("common.loading")} />
          )}
        </Grid>
      ) : (
        <>
          {!owner && (
            <Grid size={12}>
              <Alert severity="info">{t("settingsOwnerOnly")}</Alert>
            </Grid>
          )}
          <Grid size={12}>
            <Alert severity={saved.vector_search_available ? "success" : "warning"}>
              {t(saved.vector_search_available ? "vectorAvailable" : "vectorUnavailable")}
            </Alert>
          </Grid>
          <Grid size={12}>
            <TextField
              select
              label={t("embeddingsProvider")}
              value={provider ?? ""}
              onChange={(event) => pickProvider(event.target.value)}
              disabled={!owner}
              fullWidth
              helperText={t("embeddingsHelp")}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">{t("embeddingsNone")}</MenuItem>
              {menuItems(embeddingsProviderOptions())}
            </TextField>
          </Grid>
          {provider && (
            <Grid size={12}>
              <TextField
                select
                label={t("embeddingsModel")}
                value={model ?? ""}
                onChange={(event) => setDraft({ embeddings_provider: provider, embeddings_model: event.target.value })}
                disabled={!owner}
                fullWidth
              >
                {menuItems(embeddingsModelOptions(provider, savedModel))}
              </TextField>
            </Grid>
          )}
        </>
      )}
    </FormDialog>
  );
}
