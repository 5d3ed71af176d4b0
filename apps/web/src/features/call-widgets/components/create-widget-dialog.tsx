import { zodResolver } from "@hookform/resolvers/zod";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import { type CallWidget, CallWidgetCreate } from "@parley/contract";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { useCreateCallWidget } from "../api/call-widgets-api.ts";

const NewWidget = CallWidgetCreate.pick({ name: true, assistant_id: true });
type NewWidget = { name: string; assistant_id: string };

/** A name and an assistant; everything else starts from the defaults and is set in the editor. */
export function CreateWidgetDialog(props: { onClose: () => void; onCreated: (widget: CallWidget) => void }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const assistants = useAssistants();
  const create = useCreateCallWidget();
  const form = useForm<NewWidget>({ resolver: zodResolver(NewWidget), defaultValues: { name: "", assistant_id: "" } });
  return (
    <FormDialog
      title={t("createTitle")}
      maxWidth="sm"
      onClose={props.onClose}
      onSubmit={form.handleSubmit(async (values) => props.onCreated(await create.mutateAsync(values)))}
      busy={form.formState.isSubmitting}
      submitLabel={t("create")}
    >
      <Grid size={12}>
        <FormTextField control={form.control} name="name" label={t("fields.name")} required fullWidth autoFocus />
      </Grid>
      <Grid size={12}>
        <FormTextField
          control={form.control}
          name="assistant_id"
          label={t("fields.assistant")}
          helperText={assistants.error ? t("assistantsFailed") : t("assistantHelp")}
          required
          select
          fullWidth
        >
          {(assistants.data ?? []).map((assistant) => (
            <MenuItem key={assistant.id} value={assistant.id}>
              {assistant.name}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
    </FormDialog>
  );
}
