import { zodResolver } from "@hookform/resolvers/zod";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import { CreateWorkspaceBody } from "@parley/contract";
import { useSnackbar } from "notistack";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { errorText } from "../../../components/error-text.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { useCreateWorkspace } from "../api/workspace-api.ts";

/** Creates a workspace (spec §3 payload: name, billing_email) and switches to it. */
export function CreateWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const createWorkspace = useCreateWorkspace();
  const { enqueueSnackbar } = useSnackbar();
  const form = useForm<z.input<typeof CreateWorkspaceBody>, unknown, CreateWorkspaceBody>({
    resolver: zodResolver(CreateWorkspaceBody),
    defaultValues: { name: "", billing_email: "" },
  });

  const submit = form.handleSubmit(async (values) => {
    try {
      await createWorkspace.mutateAsync({
        name: values.name,
        ...(values.billing_email ? { billing_email: values.billing_email } : {}),
      });
      enqueueSnackbar(t("workspaces.created"), { variant: "success" });
      form.reset();
      onClose();
    } catch (error) {
      enqueueSnackbar(errorText(error, t("workspaces.createFailed")), { variant: "error" });
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
