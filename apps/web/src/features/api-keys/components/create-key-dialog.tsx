import { API_KEY_SCOPES, type CreateApiKeyBody } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { HALF } from "../../../components/form-fields/field-spec.ts";
import { optionsOf } from "../../../components/menu-options.tsx";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { EXPIRY_CHOICES, KeyForm, keyFormDefaults, toCreateBody } from "./key-form.ts";

/** Name, scopes and expiry of a new key. A failed create keeps the dialog and what was typed. */
export function CreateKeyDialog(props: { onClose: () => void; onSubmit: (body: CreateApiKeyBody) => Promise<void> }) {
  const { t } = useTranslation(["api-keys", "translation"], { nsMode: "fallback" });
  const form = useSchemaForm(KeyForm, keyFormDefaults);
  const today = new Date().toISOString().slice(0, 10);
  return (
    <SchemaFormDialog
      form={form}
      title={t("createTitle")}
      onClose={props.onClose}
      onValid={(values) => props.onSubmit(toCreateBody(values))}
      submitLabel={t("createSubmit")}
      fields={[
        { name: "name", label: t("fields.name"), helperText: t("nameHelp"), required: true, autoFocus: true },
        {
          kind: "checkboxes",
          name: "scopes",
          label: t("fields.scopes"),
          legend: true,
          required: true,
          errorText: t("scopesRequired"),
          options: optionsOf(API_KEY_SCOPES, (scope) => `${t(`scopes.${scope}`)} — ${t(`scopeHelp.${scope}`)}`),
        },
        {
          kind: "select",
          name: "expiry",
          label: t("fields.expiry"),
          grid: HALF,
          options: optionsOf(EXPIRY_CHOICES, (choice) => t(`expiry.${choice}`)),
        },
        form.watch("expiry") === "custom" && {
          name: "customDate",
          type: "date",
          label: t("fields.expiryDate"),
          required: true,
          grid: HALF,
          slotProps: { inputLabel: { shrink: true }, htmlInput: { min: today } },
        },
      ]}
    />
  );
}
