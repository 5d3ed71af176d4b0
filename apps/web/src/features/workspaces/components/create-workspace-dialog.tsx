import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import { CreateWorkspaceBody } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { useCreateWorkspace } from "../api/workspace-api.ts";

/** Creates a workspace (spec §3 payload: name, billing_email) and switches to it. */
export function CreateWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const createWorkspace = useCreateWorkspace();
  const notice = useNotice();
  const form = useSchemaForm(CreateWorkspaceBody, { name: "", billing_email: "" });

  const submit = form.handleSubmit(async (values) => {
    const body = { name: values.name, ...(values.billing_email ? { billing_email: values.billing_email } : {}) };
    if (await notice.run(createWorkspace.mutateAsync(body), t("workspaces.created"), t("workspaces.createFailed"))) {
      form.reset();
      onClose();
    }
  });

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="create-workspace-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="create-workspace-title">{t("workspaces.createTitle")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormTextField control={form.control} name="name" label={t("workspaces.name")} required autoFocus />
            <FormTextField
              control={form.control}
              name="billing_email"
              label={t("workspaces.billingEmail")}
              type="email"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
            {t("workspaces.create")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
