import { zodResolver } from "@hookform/resolvers/zod";
import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import { API_KEY_SCOPES, type CreateApiKeyBody } from "@parley/contract";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import {
  EXPIRY_CHOICES,
  KeyForm,
  type KeyFormInput,
  type KeyFormOutput,
  keyFormDefaults,
  toCreateBody,
} from "./key-form.ts";

/** Name, scopes and expiry of a new key. A failed create keeps the dialog and what was typed. */
export function CreateKeyDialog(props: { onClose: () => void; onSubmit: (body: CreateApiKeyBody) => Promise<void> }) {
  const { t } = useTranslation(["api-keys", "translation"], { nsMode: "fallback" });
  const form = useForm<KeyFormInput, unknown, KeyFormOutput>({
    resolver: zodResolver(KeyForm),
    defaultValues: keyFormDefaults,
  });
  const expiry = form.watch("expiry");
  const today = new Date().toISOString().slice(0, 10);

  return (
    <FormDialog
      title={t("createTitle")}
      maxWidth="sm"
      onClose={props.onClose}
      onSubmit={form.handleSubmit((values) => props.onSubmit(toCreateBody(values)))}
      busy={form.formState.isSubmitting}
      submitLabel={t("createSubmit")}
    >
      <Grid size={12}>
        <FormTextField
          control={form.control}
          name="name"
          label={t("fields.name")}
          helperText={t("nameHelp")}
          required
          fullWidth
          autoFocus
        />
      </Grid>
      <Grid size={12}>
        <Controller
          control={form.control}
          name="scopes"
          render={({ field, fieldState }) => (
            <FormControl component="fieldset" error={fieldState.invalid} required>
              <FormLabel component="legend">{t("fields.scopes")}</FormLabel>
              <FormGroup>
                {API_KEY_SCOPES.map((scope) => (
                  <FormControlLabel
                    key={scope}
                    label={`${t(`scopes.${scope}`)} — ${t(`scopeHelp.${scope}`)}`}
                    control={
                      <Checkbox
                        checked={field.value.includes(scope)}
                        onChange={(event) =>
                          field.onChange(
                            event.target.checked
                              ? [...field.value, scope]
                              : field.value.filter((s: string) => s !== scope),
                          )
                        }
                      />
                    }
                  />
                ))}
              </FormGroup>
              {fieldState.invalid && <FormHelperText>{t("scopesRequired")}</FormHelperText>}
            </FormControl>
          )}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField control={form.control} name="expiry" select label={t("fields.expiry")} fullWidth>
          {EXPIRY_CHOICES.map((choice) => (
            <MenuItem key={choice} value={choice}>
              {t(`expiry.${choice}`)}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      {expiry === "custom" && (
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormTextField
            control={form.control}
            name="customDate"
            type="date"
            label={t("fields.expiryDate")}
            required
            fullWidth
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: today } }}
          />
        </Grid>
      )}
    </FormDialog>
  );
}
