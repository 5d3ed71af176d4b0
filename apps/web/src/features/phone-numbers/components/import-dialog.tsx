import { zodResolver } from "@hookform/resolvers/zod";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import { integrationProvider, MediaStreamProvider } from "@parley/contract";
import { useEffect, useId, useMemo } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { type NewImport, savedIntegrationsFor, useSavedIntegrations } from "../../../api/phone-numbers.ts";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import {
  CredentialSource,
  credentialFields,
  type ImportValues,
  importForm,
  toImportBody,
} from "../forms/other-forms.ts";
import { AssistantField } from "./assistant-field.tsx";
import { FIRST_MEDIA_PROVIDER, providerLabel } from "./provider-names.ts";

/**
 * Import every number of a telephony account: with the workspace's saved credentials for that
 * vendor, or credentials typed here (the server keeps them as the workspace's integration). The
 * numbers' webhooks are pointed at Parley, and each answers with the chosen assistant.
 */
export function ImportDialog(props: { onClose: () => void; onSubmit: (body: NewImport) => Promise<void> }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const sourceLabel = useId();
  const schema = useMemo(
    () =>
      importForm({
        chooseIntegration: t("import.chooseIntegration"),
        fieldRequired: (label) => t("rules.fieldRequired", { label }),
      }),
    [t],
  );
  const first = FIRST_MEDIA_PROVIDER;
  const form = useForm<ImportValues>({
    resolver: zodResolver(schema),
    defaultValues: {
      provider: first,
      source: "saved",
      integration_id: "",
      credentials: {},
      agent_id: "",
      fields: credentialFields(integrationProvider(first)),
    },
  });
  const { control, setValue } = form;
  const provider = useWatch({ control, name: "provider" });
  const source = useWatch({ control, name: "source" });
  const integrations = useSavedIntegrations();
  const saved = savedIntegrationsFor(integrations.data, provider);
  const info = integrationProvider(provider);

  // Another vendor: its own fields and saved credentials; typing is offered first when none are saved.
  const firstSaved = saved[0]?.id ?? "";
  const loaded = integrations.data !== undefined;
  useEffect(() => {
    setValue("fields", credentialFields(info));
    setValue("credentials", {});
    setValue("integration_id", firstSaved);
    if (loaded) setValue("source", firstSaved ? "saved" : "typed");
  }, [info, firstSaved, loaded, setValue]);

  return (
    <FormDialog
      title={t("import.title")}
      maxWidth="sm"
      onClose={props.onClose}
      onSubmit={form.handleSubmit((values) => props.onSubmit(toImportBody(values)))}
      busy={form.formState.isSubmitting}
      lockWhileBusy
      busySpinner
      busyLabel={t("import.importing")}
      submitLabel={t("import.submit")}
    >
      <Grid size={12}>
        <FormTextField control={control} name="provider" label={t("fields.provider")} select fullWidth>
          {MediaStreamProvider.options.map((value) => (
            <MenuItem key={value} value={value}>
              {providerLabel(value)}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      <Grid size={12}>
        <FormLabel id={sourceLabel}>{t("import.source")}</FormLabel>
        <Controller
          control={control}
          name="source"
          render={({ field }) => (
            <RadioGroup row aria-labelledby={sourceLabel} {...field}>
              {CredentialSource.options.map((value) => (
                <FormControlLabel
                  key={value}
                  value={value}
                  control={<Radio />}
                  label={t(`import.sources.${value}`)}
                  disabled={value === "saved" && saved.length === 0}
                />
              ))}
            </RadioGroup>
          )}
        />
      </Grid>
      {source === "saved" ? (
        <Grid size={12}>
          <FormTextField
            control={control}
            name="integration_id"
            label={t("fields.integration")}
            select
            fullWidth
            helperText={saved.length === 0 ? t("create.noIntegration", { provider: providerLabel(provider) }) : ""}
          >
            {saved.map((integration) => (
              <MenuItem key={integration.id} value={integration.id}>
                {t("create.savedIntegration", { provider: integration.label })}
              </MenuItem>
            ))}
          </FormTextField>
        </Grid>
      ) : (
        (info?.fields ?? []).map((field) => (
          <Grid size={12} key={`${provider}-${field.name}`}>
            <FormTextField
              control={control}
              name={`credentials.${field.name}`}
              label={field.label}
              required={!field.optional}
              type={field.secret ? "password" : field.url ? "url" : "text"}
              autoComplete="off"
              fullWidth
              slotProps={{ htmlInput: { dir: "ltr" } }}
            />
          </Grid>
        ))
      )}
      <Grid size={12}>
        <AssistantField
          control={control}
          name="agent_id"
          label={t("fields.inbound")}
          helperText={t("import.assistantHelp")}
        />
      </Grid>
    </FormDialog>
  );
}
