import { zodResolver } from "@hookform/resolvers/zod";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import { type CreateMcpServerBody, type McpServer, McpTransport } from "@parley/contract";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { headersNeedRetyping } from "../../../api/secret-headers.ts";
import { FormDialog } from "../../../components/form-dialog.tsx";
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
  const form = useForm<McpServerFormInput, unknown, McpServerFormOutput>({
    resolver: zodResolver(McpServerForm),
    defaultValues: formDefaults(props.server),
  });

  return (
    <FormDialog
      title={props.server ? t("editTitle") : t("createTitle")}
      maxWidth="sm"
      onClose={props.onClose}
      onSubmit={form.handleSubmit((values) => {
        const body = toBody(values);
        // Said here rather than after a refused request: the API would answer the same.
        if (props.server && headersNeedRetyping(props.server, body)) throw new Error(t("headersAgain"));
        return props.onSubmit(body);
      })}
      busy={form.formState.isSubmitting}
      lockWhileBusy
      busyLabel={t("connecting")}
    >
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
    </FormDialog>
  );
}
