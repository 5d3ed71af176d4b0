import { zodResolver } from "@hookform/resolvers/zod";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import { CLONE_SERVICES, TTS_CATALOG } from "@parley/contract";
import { type FormEvent, useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/form-dialog.tsx";
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
  const busy = form.formState.isSubmitting;
  // "Choose a file" would only nag before the first save attempt; the other problems show at once.
  const problems = cloneFilesProblems(files).filter((p) => p.kind !== "none" || attempted);

  const upload = form.handleSubmit(async (values) => {
    if (cloneFilesProblems(files).length === 0) await props.onSubmit(values, files);
  });
  const submit = (event: FormEvent) => {
    setAttempted(true);
    return upload(event);
  };

  return (
    <FormDialog
      title={t("clone.title")}
      maxWidth="sm"
      onClose={props.onClose}
      onSubmit={submit}
      busy={busy}
      lockWhileBusy
      submitLabel={t("clone.submit")}
      busyLabel={t("clone.uploading")}
      busySpinner
      failureFallback={t("clone.failed")}
    >
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
    </FormDialog>
  );
}
