import { zodResolver } from "@hookform/resolvers/zod";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import { FUNCTION_HTTP_METHODS, type ToolFunction } from "@parley/contract";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { FunctionSaveBody } from "../../../api/functions.ts";
import { headersNeedRetyping } from "../../../api/secret-headers.ts";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { HeaderRowsField } from "../../../components/key-value-rows.tsx";
import {
  FunctionForm,
  type FunctionFormInput,
  type FunctionFormOutput,
  formDefaults,
  toBody,
} from "./function-form.ts";
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
  const form = useForm<FunctionFormInput, unknown, FunctionFormOutput>({
    resolver: zodResolver(FunctionForm),
    defaultValues: formDefaults(props.fn),
  });
  const secretHelp = props.fn?.has_secret ? t("secretKeep") : t("secretHelp");
  const clearing = form.watch("clearSecret");

  return (
    <FormDialog
      title={props.fn ? t("editTitle") : t("createTitle")}
      maxWidth="md"
      onClose={props.onClose}
      onSubmit={form.handleSubmit((values) => {
        const body = toBody(values);
        // Said here rather than after a refused request: the API would answer the same.
        if (props.fn && headersNeedRetyping(props.fn, body)) throw new Error(t("headersAgain"));
        return props.onSubmit(body);
      })}
      busy={form.formState.isSubmitting}
    >
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={form.control}
          name="name"
          label={t("fields.name")}
          helperText={t("nameHelp")}
          required
          fullWidth
          slotProps={{ htmlInput: { dir: "ltr", spellCheck: false } }}
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
      <Grid size={12}>
        <FormTextField
          control={form.control}
          name="description"
          label={t("fields.description")}
          helperText={t("descriptionHelp")}
          required
          fullWidth
          multiline
          minRows={2}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 3 }}>
        <FormTextField control={form.control} name="method" select label={t("fields.method")} fullWidth>
          {FUNCTION_HTTP_METHODS.map((m) => (
            <MenuItem key={m} value={m}>
              {m}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 9 }}>
        <FormTextField
          control={form.control}
          name="url"
          type="url"
          label={t("fields.url")}
          required
          fullWidth
          slotProps={{ htmlInput: { dir: "ltr" } }}
        />
      </Grid>
      <Grid size={12}>
        <ParametersField control={form.control} />
      </Grid>
      <Grid size={12}>
        <HeaderRowsField control={form.control} name="headers" t={t} />
      </Grid>
      <Grid size={12}>
        <FormTextField
          control={form.control}
          name="secret"
          type="password"
          autoComplete="new-password"
          label={t("fields.secret")}
          helperText={secretHelp}
          disabled={clearing}
          fullWidth
        />
        {props.fn?.has_secret && (
          <Controller
            control={form.control}
            name="clearSecret"
            render={({ field }) => (
              <FormControlLabel
                control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
                label={t("secretClear")}
              />
            )}
          />
        )}
      </Grid>
    </FormDialog>
  );
}
