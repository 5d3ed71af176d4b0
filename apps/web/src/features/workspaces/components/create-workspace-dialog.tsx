import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { CreateWorkspaceBody } from "@parley/contract";
import { useSnackbar } from "notistack";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../auth/auth-context.ts";

/** Creates a workspace (spec §3 payload: name, billing_email) and switches to it. */
export function CreateWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { createWorkspace } = useAuth();
  const { enqueueSnackbar } = useSnackbar();
  const [name, setName] = useState("");
  const [billingEmail, setBillingEmail] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = CreateWorkspaceBody.safeParse({ name, billing_email: billingEmail });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setBusy(true);
    try {
      await createWorkspace({
        name: parsed.data.name,
        ...(parsed.data.billing_email ? { billing_email: parsed.data.billing_email } : {}),
      });
      enqueueSnackbar(t("workspaces.created"), { variant: "success" });
      setName("");
      setBillingEmail("");
      setErrors({});
      onClose();
    } catch (error) {
      enqueueSnackbar(error instanceof Error ? error.message : t("workspaces.createFailed"), { variant: "error" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="create-workspace-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="create-workspace-title">{t("workspaces.createTitle")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t("workspaces.name")}
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={Boolean(errors.name)}
              helperText={errors.name}
              required
              autoFocus
            />
            <TextField
              label={t("workspaces.billingEmail")}
              type="email"
              value={billingEmail}
              onChange={(e) => setBillingEmail(e.target.value)}
              error={Boolean(errors.billing_email)}
              helperText={errors.billing_email}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t("workspaces.create")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
