import Grid from "@mui/material/Grid";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/form-dialog.tsx";

/** Asks for the new version's note (optional) and publishes; a failure stays in the dialog. */
export function PublishDialog(props: {
  nextNumber: number;
  /** Whether the editor's unsaved changes go into the version. */
  withEdits: boolean;
  busy: boolean;
  onPublish: (note: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation("assistants");
  const [note, setNote] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The dialog sits inside the editor's form in React's tree, where a submit bubbles even through
    // the portal: without this the editor would also save (and publish) its settings.
    event.stopPropagation();
    return props.onPublish(note.trim());
  };
  return (
    <FormDialog
      title={t("versions.publishTitle", { number: props.nextNumber })}
      onClose={props.onClose}
      onSubmit={submit}
      busy={props.busy}
      submitLabel={t("versions.publish")}
      busyLabel={t("versions.publishing")}
      busySpinner
      failureFallback={t("notices.failed")}
    >
      <Grid size={12}>
        <Typography color="text.secondary">
          {props.withEdits ? t("versions.publishWithEdits") : t("versions.publishDraft")}
        </Typography>
      </Grid>
      <Grid size={12}>
        <TextField
          label={t("versions.note")}
          helperText={t("versions.noteHelp")}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          fullWidth
          multiline
          minRows={2}
          slotProps={{ htmlInput: { maxLength: 500, dir: "auto" } }}
          autoFocus
        />
      </Grid>
    </FormDialog>
  );
}
