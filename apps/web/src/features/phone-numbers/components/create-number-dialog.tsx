import { MediaStreamProvider, SipTrunkSettings } from "@parley/contract";
import { useEffect, useMemo } from "react";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { type NewPhoneNumber, savedIntegrationsFor, useSavedIntegrations } from "../../../api/phone-numbers.ts";
import { type FieldSpec, HALF, LTR, TEL } from "../../../components/form-fields/field-spec.ts";
import { optionsOf } from "../../../components/menu-options.tsx";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import {
  type CreateNumberValues,
  createNumberDefaults,
  createNumberForm,
  NumberKind,
  toCreateBody,
} from "../forms/create-number-form.ts";
import { useAssistantSelect } from "./assistant-select.tsx";
import { CountryField } from "./country-field.tsx";
import { FIRST_MEDIA_PROVIDER, providerLabel } from "./provider-names.ts";

/**
 * Add a number the workspace already has: at a telephony vendor (its saved credentials configure
 * the number's webhook) or on a carrier's SIP trunk. The server's refusal (a duplicate, a number it
 * cannot parse, a vendor that would not configure it) stays above the fields.
 */
export function CreateNumberDialog(props: { onClose: () => void; onSubmit: (body: NewPhoneNumber) => Promise<void> }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const schema = useMemo(
    () =>
      createNumberForm({
        numberRequired: t("rules.numberRequired"),
        numberInvalid: t("rules.numberInvalid"),
        countryNeeded: t("rules.countryNeeded"),
        sipHostRequired: t("rules.sipHostRequired"),
        usernameRequired: t("rules.usernameRequired"),
        ipInvalid: t("rules.ipInvalid"),
      }),
    [t],
  );
  const form = useSchemaForm(schema, createNumberDefaults(FIRST_MEDIA_PROVIDER));
  const { control } = form;
  const kind = useWatch({ control, name: "kind" });
  const provider = useWatch({ control, name: "provider" });
  const integrations = useSavedIntegrations();
  const saved = savedIntegrationsFor(integrations.data, provider);
  const stored = integrations.data?.find((i) => i.provider === provider && i.configured);
  const assistant = useAssistantSelect<CreateNumberValues>();

  // The provider's own credentials by default: a number without them cannot have its webhook set.
  const firstSaved = saved[0]?.id ?? "";
  useEffect(() => {
    form.setValue("integration_id", firstSaved);
  }, [form, firstSaved]);

  const ownFields: FieldSpec<CreateNumberValues>[] = [
    {
      kind: "select",
      name: "provider",
      label: t("fields.provider"),
      grid: HALF,
      options: optionsOf(MediaStreamProvider.options, providerLabel),
    },
    {
      kind: "select",
      name: "integration_id",
      label: t("fields.integration"),
      grid: HALF,
      helperText: stored ? "" : t("create.noIntegration", { provider: providerLabel(provider) }),
      options: [
        // "" is the workspace's stored credentials for the vendor when it has some (the server picks them), else none.
        {
          value: "",
          label: stored && !stored.id ? t("create.savedIntegration", { provider: stored.label }) : <em>{t("none")}</em>,
        },
        ...saved.map((i) => ({ value: i.id, label: t("create.savedIntegration", { provider: i.label }) })),
      ],
    },
  ];
  const trunkFields: FieldSpec<CreateNumberValues>[] = [
    {
      name: "sip_host",
      label: t("fields.sipHost"),
      required: true,
      grid: { xs: 12, sm: 8 },
      helperText: t("create.sipHostHelp"),
      slotProps: LTR,
    },
    {
      kind: "select",
      name: "transport",
      label: t("fields.transport"),
      grid: { xs: 12, sm: 4 },
      options: optionsOf(SipTrunkSettings.shape.transport.unwrap().options, (value) => value.toUpperCase()),
    },
    { name: "username", label: t("fields.username"), autoComplete: "off", grid: HALF, slotProps: LTR },
    { name: "password", label: t("fields.password"), type: "password", autoComplete: "new-password", grid: HALF },
    { kind: "switch", name: "register", label: t("fields.register") },
    {
      name: "allowed_ips",
      label: t("fields.allowedIps"),
      helperText: t("create.allowedIpsHelp"),
      multiline: true,
      minRows: 2,
      slotProps: LTR,
    },
  ];
  return (
    <SchemaFormDialog
      form={form}
      title={t("create.title")}
      onClose={props.onClose}
      onValid={(values) => props.onSubmit(toCreateBody(values))}
      lockWhileBusy
      busyLabel={t("create.saving")}
      submitLabel={t("create.submit")}
      fields={[
        {
          kind: "radios",
          name: "kind",
          label: t("create.kind"),
          options: optionsOf(NumberKind.options, (value) => t(`create.kinds.${value}`)),
        },
        { name: "friendly_name", label: t("fields.friendlyName") },
        {
          kind: "node",
          key: "country",
          grid: HALF,
          node: <CountryField control={control} name="country" helperText={t("create.countryHelp")} />,
        },
        {
          name: "number",
          label: t("fields.number"),
          type: "tel",
          autoComplete: "off",
          required: true,
          grid: HALF,
          helperText: t("create.numberHelp"),
          slotProps: TEL,
        },
        ...(kind === "own" ? ownFields : trunkFields),
        assistant("agent_id", t("fields.inbound"), t("detail.inboundHelp"), HALF),
        assistant("outbound_agent_id", t("fields.outbound"), t("detail.outboundHelp"), HALF),
      ]}
    />
  );
}
