import { CLONE_SERVICES, TTS_CATALOG } from "@parley/contract";
import { type FormEvent, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { HALF } from "../../../components/form-fields/field-spec.ts";
import { FormFields } from "../../../components/form-fields/form-fields.tsx";
import { optionsOf } from "../../../components/menu-options.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { cloneFilesProblems } from "../utils/clone-files.ts";
import { CLONE_LANGUAGES, languageName } from "../utils/languages.ts";
import { CloneFilesField } from "./clone-files-field.tsx";
import { CLONE_FORM_DEFAULTS, type CloneFormOutput, cloneFormSchema } from "./clone-form.ts";

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
  const form = useSchemaForm(schema, CLONE_FORM_DEFAULTS);
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
      onClose={props.onClose}
      onSubmit={submit}
      busy={busy}
      lockWhileBusy
      submitLabel={t("clone.submit")}
      busyLabel={t("clone.uploading")}
      busySpinner
      failureFallback={t("clone.failed")}
    >
      <FormFields
        control={form.control}
        fields={[
          { name: "name", label: t("clone.name"), required: true },
          {
            name: "description",
            label: t("clone.description"),
            helperText: t("clone.descriptionHelp"),
            multiline: true,
            minRows: 2,
          },
          {
            kind: "select",
            name: "service_name",
            label: t("clone.provider"),
            grid: HALF,
            options: optionsOf(CLONE_SERVICES, (s) => TTS_CATALOG[s].label),
          },
          {
            kind: "select",
            name: "language",
            label: t("clone.language"),
            grid: HALF,
            options: optionsOf(CLONE_LANGUAGES, (code) => languageName(code, i18n.language)),
          },
          {
            kind: "node",
            key: "files",
            node: <CloneFilesField files={files} onChange={setFiles} problems={problems} disabled={busy} />,
          },
        ]}
      />
    </FormDialog>
  );
}
