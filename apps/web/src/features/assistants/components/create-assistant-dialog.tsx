import { zodResolver } from "@hookform/resolvers/zod";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import { AssistantFields } from "@parley/contract";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { FormTextField } from "../../../components/form-text-field.tsx";

const NameForm = z.object({ name: AssistantFields.shape.name });
type NameForm = z.infer<typeof NameForm>;

/** Asks for the new assistant's name; every other setting starts from the spec §9 defaults. */
export function CreateAssistantDialog(props: {
  open: boolean;
  onClose: () => void;
  onCreate: (name: string) => Promise<void>;
}) {
  const { t } = useTranslation("assistants");
  const form = useForm<NameForm>({ resolver: zodResolver(NameForm), defaultValues: { name: "" } });
  const submit = form.handleSubmit((values) => props.onCreate(values.name));
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="create-assistant-title"
      slotProps={{ transition: { onExited: () => form.reset({ name: "" }) } }}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="create-assistant-title">{t("create.title")}</DialogTitle>
        <DialogContent>
          <FormTextField
            control={form.control}
            name="name"
            label={t("create.name")}
            autoFocus
            required
            fullWidth
            sx={{ mt: 1 }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose}>{t("cancel")}</Button>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
            {t("create.submit")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
