import { zodResolver } from "@hookform/resolvers/zod";
import Grid from "@mui/material/Grid";
import { type Tier, TierBody } from "@parley/contract";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { numberField } from "../../../components/number-field.ts";

const NUMBER_FIELDS = ["max_assistants", "minutes_per_month", "concurrent_calls", "max_workspaces", "price"] as const;

const TierForm = TierBody.extend({
  max_assistants: numberField(TierBody.shape.max_assistants),
  minutes_per_month: numberField(TierBody.shape.minutes_per_month),
  concurrent_calls: numberField(TierBody.shape.concurrent_calls),
  max_workspaces: numberField(TierBody.shape.max_workspaces),
  price: numberField(TierBody.shape.price),
});

/** Create or edit a tier; validated with the contract's schema before it is sent. */
export function TierDialog(props: {
  tier: Tier | null;
  onClose: () => void;
  onSubmit: (body: TierBody) => Promise<void>;
}) {
  const { t } = useTranslation();
  const initial = props.tier;
  const form = useForm<z.input<typeof TierForm>, unknown, z.output<typeof TierForm>>({
    resolver: zodResolver(TierForm),
    defaultValues: {
      name: initial?.name ?? "",
      description: initial?.description ?? "",
      ...Object.fromEntries(NUMBER_FIELDS.map((f) => [f, initial ? initial[f] : ""])),
    },
  });
  const field = (name: keyof TierBody, type: "text" | "number" = "number") => (
    <FormTextField
      control={form.control}
      name={name}
      fullWidth
      type={type}
      label={t(`admin.tierFields.${name}`)}
      required={name !== "description"}
    />
  );

  return (
    <FormDialog
      title={initial ? t("admin.editTier") : t("admin.newTier")}
      maxWidth="sm"
      onClose={props.onClose}
      onSubmit={form.handleSubmit((values) => props.onSubmit({ ...values, description: values.description || null }))}
      busy={form.formState.isSubmitting}
    >
      <Grid size={12}>{field("name", "text")}</Grid>
      <Grid size={12}>{field("description", "text")}</Grid>
      {NUMBER_FIELDS.map((f) => (
        <Grid key={f} size={{ xs: 12, sm: 6 }}>
          {field(f)}
        </Grid>
      ))}
    </FormDialog>
  );
}
