import { zodResolver } from "@hookform/resolvers/zod";
import Grid from "@mui/material/Grid";
import { CreateWorkflowBody } from "@parley/contract";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";

const NewWorkflow = CreateWorkflowBody.pick({ name: true, description: true });
type NewWorkflow = z.input<typeof NewWorkflow>;

/** Names a new workflow; it starts as a start node joined to an end node. */
export function CreateWorkflowDialog(props: {
  defaultName?: string;
  onClose: () => void;
  onCreate: (body: z.output<typeof NewWorkflow>) => Promise<unknown>;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const form = useForm<NewWorkflow, unknown, z.output<typeof NewWorkflow>>({
    resolver: zodResolver(NewWorkflow),
    defaultValues: { name: props.defaultName ?? "", description: "" },
  });
  return (
    <FormDialog
      title={t("create.title")}
      maxWidth="sm"
      onClose={props.onClose}
      onSubmit={form.handleSubmit(props.onCreate)}
      busy={form.formState.isSubmitting}
      submitLabel={t("create.submit")}
    >
      <Grid size={12}>
        <FormTextField control={form.control} name="name" label={t("create.name")} required fullWidth autoFocus />
      </Grid>
      <Grid size={12}>
        <FormTextField
          control={form.control}
          name="description"
          label={t("create.description")}
          fullWidth
          multiline
          minRows={2}
        />
      </Grid>
    </FormDialog>
  );
}
