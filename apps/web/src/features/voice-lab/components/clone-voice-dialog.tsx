import { zodResolver } from "@hookform/resolvers/zod";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import { CLONE_SERVICES, TTS_CATALOG } from "@parley/contract";
import { type FormEvent, useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { cloneFilesProblems } from "../utils/clone-files.ts";
import { CLONE_LANGUAGES, languageName } from "../utils/languages.ts";
import { CloneFilesField } from "./clone-files-field.tsx";
import { CLONE_FORM_DEFAULTS, type CloneFormInput, type CloneFormOutput, cloneFormSchema } from "./clone-form.ts";

/**
 * "Clone a voice": name, description, language, vendor and 1–5 audio samples. The files are
 * checked here before the upload; a failed upload keeps the dialog, the fields and the files,
 * and shows the server's reason.
 */
export function CloneVoiceDialog(props: {
  onClose: () => void;
  onSubmit: (fields: CloneFormOutput, files: File[]) => Promise<void>;
}) {
  const { t, i18n } = useTranslation(["voice-lab", "translation"], { nsMode: "fallback" });
  const schema = useMemo(
    () =>
      cloneFormSchema({
        nameRequired: t("clone.nameRequired"),
        nameTooLong: t("clone.nameTooLong"),
        descriptionTooLong: t("clone.descriptionTooLong"),
      }),
    [t],
  );
  const form = useForm<CloneFormInput, unknown, CloneFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: CLONE_FORM_DEFAULTS,
  });
  const [files, setFiles] = useState<File[]>([]);
  const [attempted, setAttempted] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // "Choose a file" would only nag before the first save attempt; the other problems show at once.
  const problems = cloneFilesProblems(files).filter((p) => p.kind !== "none" || attempted);

  const upload = form.handleSubmit(async (values) => {
    if (cloneFilesProblems(files).length > 0) return;
    setFailure(null);
    setBusy(true);
    try {
      await props.onSubmit(values, files);
    } catch (error) {
      setFailure(errorText(error, t("clone.failed")));
    } finally {
      setBusy(false);
    }
  });
  const submit = (event: FormEvent) => {
    setAttempted(true);
    void upload(event);
  };
  const close = () => {
    if (!busy) props.onClose();
  };

  return (
    <Dialog open onClose={close} fullWidth maxWidth="sm" aria-labelledby="clone-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="clone-dialog-title">{t("clone.title")}</DialogTitle>
        <DialogContent>
          <Grid container spacing={2} sx={{ pt: 1 }}>
            {failure && (
              <Grid size={12}>
                <Alert severity="error">{failure}</Alert>
              </Grid>
            )}
            <Grid size={12}>
              <FormTextField control={form.control} name="name" label={t("clone.name")} required fullWidth />
            </Grid>
            <Grid size={12}>
              <FormTextField
                control={form.control}
                name="description"
                label={t("clone.description")}
                helperText={t("clone.descriptionHelp")}
                fullWidth
                multiline
                minRows={2}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField control={form.control} name="service_name" select label={t("clone.provider")} fullWidth>
                {CLONE_SERVICES.map((s) => (
                  <MenuItem key={s} value={s}>
                    {TTS_CATALOG[s].label}
                  </MenuItem>
                ))}
              </FormTextField>
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField control={form.control} name="language" select label={t("clone.language")} fullWidth>
                {CLONE_LANGUAGES.map((code) => (
                  <MenuItem key={code} value={code}>
                    {languageName(code, i18n.language)}
                  </MenuItem>
                ))}
              </FormTextField>
            </Grid>
            <Grid size={12}>
              <CloneFilesField files={files} onChange={setFiles} problems={problems} disabled={busy} />
            </Grid>
          </Grid>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            {t("common.cancel")}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy}
            startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          >
            {busy ? t("clone.uploading") : t("clone.submit")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
