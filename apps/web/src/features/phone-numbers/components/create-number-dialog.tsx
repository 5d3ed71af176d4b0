import { zodResolver } from "@hookform/resolvers/zod";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Switch from "@mui/material/Switch";
import { MediaStreamProvider, SipTrunkSettings } from "@parley/contract";
import { useEffect, useId, useMemo } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { type NewPhoneNumber, savedIntegrationsFor, useSavedIntegrations } from "../../../api/phone-numbers.ts";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import {
  type CreateNumberValues,
  createNumberDefaults,
  createNumberForm,
  NumberKind,
  toCreateBody,
} from "../forms/create-number-form.ts";
import { AssistantField } from "./assistant-field.tsx";
import { CountryField } from "./country-field.tsx";
import { FIRST_MEDIA_PROVIDER, providerLabel } from "./provider-names.ts";

/**
 * Add a number the workspace already has: at a telephony vendor (its saved credentials configure
 * the number's webhook) or on a carrier's SIP trunk. The server's refusal (a duplicate, a number it
 * cannot parse, a vendor that would not configure it) stays above the fields.
 */
export function CreateNumberDialog(props: { onClose: () => void; onSubmit: (body: NewPhoneNumber) => Promise<void> }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const kindLabel = useId();
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
  const form = useForm<CreateNumberValues>({
    resolver: zodResolver(schema),
    defaultValues: createNumberDefaults(FIRST_MEDIA_PROVIDER),
  });
  const { control } = form;
  const kind = useWatch({ control, name: "kind" });
  const provider = useWatch({ control, name: "provider" });
  const integrations = useSavedIntegrations();
  const saved = savedIntegrationsFor(integrations.data, provider);
  const stored = integrations.data?.find((i) => i.provider === provider && i.configured);

  // The provider's own credentials by default: a number without them cannot have its webhook set.
  const firstSaved = saved[0]?.id ?? "";
  useEffect(() => {
    form.setValue("integration_id", firstSaved);
  }, [form, firstSaved]);

  return (
    <FormDialog
      title={t("create.title")}
      maxWidth="sm"
      onClose={props.onClose}
      onSubmit={form.handleSubmit((values) => props.onSubmit(toCreateBody(values)))}
      busy={form.formState.isSubmitting}
      lockWhileBusy
      busyLabel={t("create.saving")}
      submitLabel={t("create.submit")}
    >
      <Grid size={12}>
        <FormLabel id={kindLabel}>{t("create.kind")}</FormLabel>
        <Controller
          control={control}
          name="kind"
          render={({ field }) => (
            <RadioGroup row aria-labelledby={kindLabel} {...field}>
              {NumberKind.options.map((value) => (
                <FormControlLabel key={value} value={value} control={<Radio />} label={t(`create.kinds.${value}`)} />
              ))}
            </RadioGroup>
          )}
        />
      </Grid>
      <Grid size={12}>
        <FormTextField control={control} name="friendly_name" label={t("fields.friendlyName")} fullWidth />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <CountryField control={control} name="country" helperText={t("create.countryHelp")} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="number"
          label={t("fields.number")}
          type="tel"
          autoComplete="off"
          required
          fullWidth
          helperText={t("create.numberHelp")}
          slotProps={{ htmlInput: { dir: "ltr", inputMode: "tel" } }}
        />
      </Grid>
      {kind === "own" ? (
        <>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField control={control} name="provider" label={t("fields.provider")} select fullWidth>
              {MediaStreamProvider.options.map((value) => (
                <MenuItem key={value} value={value}>
                  {providerLabel(value)}
                </MenuItem>
              ))}
            </FormTextField>
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={control}
              name="integration_id"
              label={t("fields.integration")}
              select
              fullWidth
              helperText={stored ? "" : t("create.noIntegration", { provider: providerLabel(provider) })}
            >
              {/* "" is the workspace's stored credentials for the vendor when it has some (the server picks them), else none. */}
              <MenuItem value="">
                {stored && !stored.id ? t("create.savedIntegration", { provider: stored.label }) : <em>{t("none")}</em>}
              </MenuItem>
              {saved.map((integration) => (
                <MenuItem key={integration.id} value={integration.id}>
                  {t("create.savedIntegration", { provider: integration.label })}
                </MenuItem>
              ))}
            </FormTextField>
          </Grid>
        </>
      ) : (
        <>
          <Grid size={{ xs: 12, sm: 8 }}>
            <FormTextField
              control={control}
              name="sip_host"
              label={t("fields.sipHost")}
              required
              fullWidth
              helperText={t("create.sipHostHelp")}
              slotProps={{ htmlInput: { dir: "ltr" } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <FormTextField control={control} name="transport" label={t("fields.transport")} select fullWidth>
              {SipTrunkSettings.shape.transport.unwrap().options.map((value) => (
                <MenuItem key={value} value={value}>
                  {value.toUpperCase()}
                </MenuItem>
              ))}
            </FormTextField>
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={control}
              name="username"
              label={t("fields.username")}
              autoComplete="off"
              fullWidth
              slotProps={{ htmlInput: { dir: "ltr" } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={control}
              name="password"
              label={t("fields.password")}
              type="password"
              autoComplete="new-password"
              fullWidth
            />
          </Grid>
          <Grid size={12}>
            <Controller
              control={control}
              name="register"
              render={({ field }) => (
                <FormControlLabel
                  control={<Switch checked={field.value} onChange={(_e, on) => field.onChange(on)} />}
                  label={t("fields.register")}
                />
              )}
            />
          </Grid>
          <Grid size={12}>
            <FormTextField
              control={control}
              name="allowed_ips"
              label={t("fields.allowedIps")}
              helperText={t("create.allowedIpsHelp")}
              multiline
              minRows={2}
              fullWidth
              slotProps={{ htmlInput: { dir: "ltr" } }}
            />
          </Grid>
        </>
      )}
      <Grid size={{ xs: 12, sm: 6 }}>
        <AssistantField
          control={control}
          name="agent_id"
          label={t("fields.inbound")}
          helperText={t("detail.inboundHelp")}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <AssistantField
          control={control}
          name="outbound_agent_id"
          label={t("fields.outbound")}
          helperText={t("detail.outboundHelp")}
        />
      </Grid>
    </FormDialog>
  );
}
