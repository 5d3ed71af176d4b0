import { zodResolver } from "@hookform/resolvers/zod";
import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Grid from "@mui/material/Grid";
import Switch from "@mui/material/Switch";
import { WEBHOOK_EVENTS, type WebhookEndpoint } from "@parley/contract";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { WebhookForm, type WebhookFormInput, type WebhookFormOutput, webhookFormDefaults } from "./webhook-form.ts";

/** Add or change an endpoint: URL, the events it receives, a description, on or off. */
export function WebhookDialog(props: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
  onSubmit: (values: WebhookFormOutput) => Promise<void>;
}) {
  const { t } = useTranslation(["webhooks", "translation"], { nsMode: "fallback" });
  const form = useForm<WebhookFormInput, unknown, WebhookFormOutput>({
    resolver: zodResolver(WebhookForm),
    defaultValues: webhookFormDefaults(props.endpoint),
  });
  return (
    <FormDialog
      title={props.endpoint ? t("editTitle") : t("createTitle")}
      maxWidth="sm"
      onClose={props.onClose}
      onSubmit={form.handleSubmit(props.onSubmit)}
      busy={form.formState.isSubmitting}
    >
      <Grid size={12}>
        <FormTextField
          control={form.control}
          name="url"
          label={t("fields.url")}
          helperText={t("urlHelp")}
          placeholder="https://example.com/parley-webhook"
          required
          fullWidth
          autoFocus
          slotProps={{ htmlInput: { dir: "ltr", spellCheck: false, inputMode: "url" } }}
        />
      </Grid>
      <Grid size={12}>
        <FormTextField control={form.control} name="description" label={t("fields.description")} fullWidth />
      </Grid>
      <Grid size={12}>
        <Controller
          control={form.control}
          name="events"
          render={({ field, fieldState }) => (
            <FormControl component="fieldset" error={fieldState.invalid} required>
              <FormLabel component="legend">{t("fields.events")}</FormLabel>
              <FormGroup>
                {WEBHOOK_EVENTS.map((event) => (
                  <FormControlLabel
                    key={event}
                    label={
                      <span>
                        <code dir="ltr">{event}</code> — {t(`eventHelp.${event.replace(".", "_")}`)}
                      </span>
                    }
                    control={
                      <Checkbox
                        checked={field.value.includes(event)}
                        onChange={(e) =>
                          field.onChange(
                            e.target.checked ? [...field.value, event] : field.value.filter((v: string) => v !== event),
                          )
                        }
                      />
                    }
                  />
                ))}
              </FormGroup>
              {fieldState.invalid && <FormHelperText>{t("eventsRequired")}</FormHelperText>}
            </FormControl>
          )}
        />
      </Grid>
      <Grid size={12}>
        <Controller
          control={form.control}
          name="enabled"
          render={({ field }) => (
            <FormControlLabel
              label={t("fields.enabled")}
              control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
            />
          )}
        />
      </Grid>
    </FormDialog>
  );
}
