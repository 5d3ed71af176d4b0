import { FUNCTION_HTTP_METHODS, type ToolFunction } from "@parley/contract";
import { useTranslation } from "react-i18next";
import type { FunctionSaveBody } from "../../../api/functions.ts";
import { headersNeedRetyping } from "../../../api/secret-headers.ts";
import { HALF, LTR } from "../../../components/form-fields/field-spec.ts";
import { headerRowLabels } from "../../../components/key-value-rows.tsx";
import { optionsOf } from "../../../components/menu-options.tsx";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { FunctionForm, formDefaults, toBody } from "./function-form.ts";
import { ParametersField } from "./parameters-field.tsx";

/**
 * Create or edit a function. A failed save keeps the dialog and everything typed, and shows why.
 * The secret is write-only: it is never read back, and left blank an edit keeps the stored one.
 */
export function FunctionDialog(props: {
  fn: ToolFunction | null;
  onClose: () => void;
  onSubmit: (body: FunctionSaveBody) => Promise<void>;
}) {
  const { t } = useTranslation(["functions", "translation"], { nsMode: "fallback" });
  const form = useSchemaForm(FunctionForm, formDefaults(props.fn));
  const stored = props.fn?.has_secret === true;
  return (
    <SchemaFormDialog
      form={form}
      title={props.fn ? t("editTitle") : t("createTitle")}
      maxWidth="md"
      onClose={props.onClose}
      onValid={(values) => {
        const body = toBody(values);
        // Said here rather than after a refused request: the API would answer the same.
        if (props.fn && headersNeedRetyping(props.fn, body)) throw new Error(t("headersAgain"));
        return props.onSubmit(body);
      }}
      fields={[
        {
          name: "name",
          label: t("fields.name"),
          helperText: t("nameHelp"),
          required: true,
          grid: HALF,
          slotProps: { htmlInput: { dir: "ltr", spellCheck: false } },
        },
        { name: "timeout", type: "number", label: t("fields.timeout"), required: true, grid: HALF },
        {
          name: "description",
          label: t("fields.description"),
          helperText: t("descriptionHelp"),
          required: true,
          multiline: true,
          minRows: 2,
        },
        {
          kind: "select",
          name: "method",
          label: t("fields.method"),
          grid: { xs: 12, sm: 3 },
          options: optionsOf(FUNCTION_HTTP_METHODS),
        },
        { name: "url", type: "url", label: t("fields.url"), required: true, grid: { xs: 12, sm: 9 }, slotProps: LTR },
        { kind: "node", key: "parameters", node: <ParametersField control={form.control} /> },
        { kind: "keyValue", name: "headers", labels: headerRowLabels(t) },
        {
          kind: "group",
          key: "secret",
          fields: [
            {
              name: "secret",
              type: "password",
              autoComplete: "new-password",
              label: t("fields.secret"),
              helperText: stored ? t("secretKeep") : t("secretHelp"),
              disabled: form.watch("clearSecret"),
            },
            stored && { kind: "checkbox", name: "clearSecret", label: t("secretClear") },
          ],
        },
      ]}
    />
  );
}
