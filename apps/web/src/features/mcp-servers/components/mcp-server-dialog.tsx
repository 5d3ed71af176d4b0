import { zodResolver } from "@hookform/resolvers/zod";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import { type CreateMcpServerBody, type McpServer, McpTransport } from "@parley/contract";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { HeaderRowsField } from "../../../components/key-value-rows.tsx";
import {
  formDefaults,
  McpServerForm,
  type McpServerFormInput,
  type McpServerFormOutput,
  toBody,
} from "./mcp-server-form.ts";

/**
 * Add or edit a tool server. The server connects to it before saving, so a save can fail with the
 * reason (unreachable, not an MCP server…): the dialog then stays open with everything typed.
 */
export function McpServerDialog(props: {
  server: McpServer | null;
  onClose: () => void;
  onSubmit: (body: CreateMcpServerBody) => Promise<void>;
}) {
  const { t } = useTranslation(["mcp-servers", "translation"], { nsMode: "fallback" });
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<McpServerFormInput, unknown, McpServerFormOutput>({
    resolver: zodResolver(McpServerForm),
    defaultValues: formDefaults(props.server),
  });
  const busy = form.formState.isSubmitting;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await props.onSubmit(toBody(values));
    } catch (error) {
      setFailure(errorText(error, t("common.failed")));
    }
  });

  return (
    <Dialog open onClose={busy ? undefined : props.onClose} fullWidth maxWidth="sm" aria-labelledby="mcp-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="mcp-dialog-title">{props.server ? t("editTitle") : t("createTitle")}</DialogTitle>
        <DialogContent>
          <Grid container spacing={2} sx={{ pt: 1 }}>
            {failure && (
              <Grid size={12}>
                <Alert severity="error" role="alert">
                  {failure}
                </Alert>
              </Grid>
            )}
            <Grid size={12}>
              <FormTextField control={form.control} name="name" label={t("fields.name")} required fullWidth />
            </Grid>
            <Grid size={12}>
              <FormTextField
                control={form.control}
                name="description"
                label={t("fields.description")}
                fullWidth
                multiline
                minRows={2}
              />
            </Grid>
            <Grid size={12}>
              <FormTextField
                control={form.control}
                name="url"
                type="url"
                label={t("fields.url")}
                helperText={t("urlHelp")}
                required
                fullWidth
                slotProps={{ htmlInput: { dir: "ltr" } }}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField
                control={form.control}
                name="timeout"
                type="number"
                label={t("fields.timeout")}
                required
                fullWidth
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormTextField control={form.control} name="transport" select label={t("fields.transport")} fullWidth>
                {McpTransport.options.map((value) => (
                  <MenuItem key={value} value={value}>
                    {t(`transports.${value}`)}
                  </MenuItem>
                ))}
              </FormTextField>
            </Grid>
            <Grid size={12}>
              <HeaderRowsField control={form.control} name="headers" t={t} />
            </Grid>
          </Grid>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose} disabled={busy}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? t("connecting") : t("common.save")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
