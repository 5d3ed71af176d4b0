import { integrationProvider, MediaStreamProvider } from "@parley/contract";
import { useEffect, useMemo } from "react";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { type NewImport, savedIntegrationsFor, useSavedIntegrations } from "../../../api/phone-numbers.ts";
import { type FieldSpec, LTR } from "../../../components/form-fields/field-spec.ts";
import { optionsOf } from "../../../components/menu-options.tsx";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import {
  CredentialSource,
  credentialFields,
  type ImportValues,
  importForm,
  toImportBody,
} from "../forms/other-forms.ts";
import { useAssistantSelect } from "./assistant-select.tsx";
import { FIRST_MEDIA_PROVIDER, providerLabel } from "./provider-names.ts";

/**
 * Import every number of a telephony account: with the workspace's saved credentials for that
 * vendor, or credentials typed here (the server keeps them as the workspace's integration). The
 * numbers' webhooks are pointed at Parley, and each answers with the chosen assistant.
 */
export function ImportDialog(props: { onClose: () => void; onSubmit: (body: NewImport) => Promise<void> }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const schema = useMemo(
    () =>
      importForm({
        chooseIntegration: t("import.chooseIntegration"),
        fieldRequired: (label) => t("rules.fieldRequired", { label }),
      }),
    [t],
  );
  const first = FIRST_MEDIA_PROVIDER;
  const form = useSchemaForm(schema, {
    provider: first,
    source: "saved",
    integration_id: "",
    credentials: {},
    agent_id: "",
    fields: credentialFields(integrationProvider(first)),
  });
  const { control, setValue } = form;
  const provider = useWatch({ control, name: "provider" });
  const source = useWatch({ control, name: "source" });
  const integrations = useSavedIntegrations();
  const saved = savedIntegrationsFor(integrations.data, provider);
  const info = integrationProvider(provider);
  const assistant = useAssistantSelect<ImportValues>();

  // Another vendor: its own fields and saved credentials; typing is offered first when none are saved.
  const firstSaved = saved[0]?.id ?? "";
  const loaded = integrations.data !== undefined;
  useEffect(() => {
    setValue("fields", credentialFields(info));
    setValue("credentials", {});
    setValue("integration_id", firstSaved);
    if (loaded) setValue("source", firstSaved ? "saved" : "typed");
  }, [info, firstSaved, loaded, setValue]);

  const credentials: FieldSpec<ImportValues>[] =
    source === "saved"
      ? [
          {
            kind: "select",
            name: "integration_id",
            label: t("fields.integration"),
            helperText: saved.length === 0 ? t("create.noIntegration", { provider: providerLabel(provider) }) : "",
            options: saved.map((i) => ({ value: i.id, label: t("create.savedIntegration", { provider: i.label }) })),
          },
        ]
      : (info?.fields ?? []).map((field) => ({
          key: `${provider}-${field.name}`,
          name: `credentials.${field.name}`,
          label: field.label,
          required: !field.optional,
          type: field.secret ? "password" : field.url ? "url" : "text",
          autoComplete: "off",
          slotProps: LTR,
        }));
  return (
    <SchemaFormDialog
      form={form}
      title={t("import.title")}
      onClose={props.onClose}
      onValid={(values) => props.onSubmit(toImportBody(values))}
      lockWhileBusy
      busySpinner
      busyLabel={t("import.importing")}
      submitLabel={t("import.submit")}
      fields={[
        {
          kind: "select",
          name: "provider",
          label: t("fields.provider"),
          options: optionsOf(MediaStreamProvider.options, providerLabel),
        },
        {
          kind: "radios",
          name: "source",
          label: t("import.source"),
          options: CredentialSource.options.map((value) => ({
            value,
            label: t(`import.sources.${value}`),
            disabled: value === "saved" && saved.length === 0,
          })),
        },
        ...credentials,
        assistant("agent_id", t("fields.inbound"), t("import.assistantHelp")),
      ]}
    />
  );
}
