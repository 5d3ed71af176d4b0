import { type CreateMcpServerBody, type McpServer, McpTransport } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { headersNeedRetyping } from "../../../api/secret-headers.ts";
import { HALF, LTR } from "../../../components/form-fields/field-spec.ts";
import { headerRowLabels } from "../../../components/key-value-rows.tsx";
import { optionsOf } from "../../../components/menu-options.tsx";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { formDefaults, McpServerForm, toBody } from "./mcp-server-form.ts";

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
  const form = useSchemaForm(McpServerForm, formDefaults(props.server));
  return (
    <SchemaFormDialog
      form={form}
      title={props.server ? t("editTitle") : t("createTitle")}
      onClose={props.onClose}
      onValid={(values) => {
        const body = toBody(values);
        // Said here rather than after a refused request: the API would answer the same.
        if (props.server && headersNeedRetyping(props.server, body)) throw new Error(t("headersAgain"));
        return props.onSubmit(body);
      }}
      lockWhileBusy
      busyLabel={t("connecting")}
      fields={[
        { name: "name", label: t("fields.name"), required: true },
        { name: "description", label: t("fields.description"), multiline: true, minRows: 2 },
        {
          name: "url",
          type: "url",
          label: t("fields.url"),
          helperText: t("urlHelp"),
          required: true,
          slotProps: LTR,
        },
        { name: "timeout", type: "number", label: t("fields.timeout"), required: true, grid: HALF },
        {
          kind: "select",
          name: "transport",
          label: t("fields.transport"),
          grid: HALF,
          options: optionsOf(McpTransport.options, (value) => t(`transports.${value}`)),
        },
        { kind: "keyValue", name: "headers", labels: headerRowLabels(t) },
      ]}
    />
  );
}
