import { type Tier, TierBody } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { HALF } from "../../../components/form-fields/field-spec.ts";
import { numberField } from "../../../components/number-field.ts";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";

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
  const { t } = useTranslation(["admin", "translation"], { nsMode: "fallback" });
  const initial = props.tier;
  const form = useSchemaForm(TierForm, {
    name: initial?.name ?? "",
    description: initial?.description ?? "",
    ...Object.fromEntries(NUMBER_FIELDS.map((f) => [f, initial ? initial[f] : ""])),
  });
  return (
    <SchemaFormDialog
      form={form}
      title={initial ? t("admin.editTier") : t("admin.newTier")}
      onClose={props.onClose}
      onValid={(values) => props.onSubmit({ ...values, description: values.description || null })}
      fields={[
        { name: "name", type: "text", label: t("admin.tierFields.name"), required: true },
        { name: "description", type: "text", label: t("admin.tierFields.description"), required: false },
        ...NUMBER_FIELDS.map((name) => ({
          name,
          type: "number",
          label: t(`admin.tierFields.${name}`),
          required: true,
          grid: HALF,
        })),
      ]}
    />
  );
}
