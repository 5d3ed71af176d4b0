import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import CircularProgress from "@mui/material/CircularProgress";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type AdminUser, type EnterpriseQuota, QuotaBody, type Tier } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { HALF } from "../../../components/form-fields/field-spec.ts";
import { FormFields } from "../../../components/form-fields/form-fields.tsx";
import { numberField } from "../../../components/number-field.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { useDeleteQuota, useQuota, useSaveQuota, useTiers, useUserSearch } from "../api/admin-api.ts";
import { limitsSummary } from "../components/limits-summary.ts";
import { OverrideChip } from "../components/override-chip.tsx";

const FIELDS = ["max_assistants", "minutes_per_month", "concurrent_calls", "max_workspaces"] as const;

const QuotaForm = QuotaBody.extend({
  max_assistants: numberField(QuotaBody.shape.max_assistants),
  minutes_per_month: numberField(QuotaBody.shape.minutes_per_month),
  concurrent_calls: numberField(QuotaBody.shape.concurrent_calls),
  max_workspaces: numberField(QuotaBody.shape.max_workspaces),
});

/** Where the user's limits come from now: their override, their tier (live) or nowhere. */
function LimitsSource({ user, quota, tier }: { user: AdminUser; quota: EnterpriseQuota | null; tier: Tier | null }) {
  const { t, i18n } = useTranslation(["admin", "translation"], { nsMode: "fallback" });
  if (quota) {
    return (
      <Stack spacing={1}>
        <Typography component="div" role="status">
          <OverrideChip />
          <span>{user.tier_name ? t("overrideActive", { tier: user.tier_name }) : t("overrideActiveNoTier")}</span>
        </Typography>
        <Typography color="text.secondary">
          {t("admin.quotaAllocated", { count: quota.allocated_concurrency })}
        </Typography>
      </Stack>
    );
  }
  return (
    <Typography color="text.secondary" role="status">
      {tier
        ? t("followsTier", { name: user.name, tier: tier.name, limits: limitsSummary(t, tier, i18n.language) })
        : t("noTierNoOverride")}
    </Typography>
  );
}

/**
 * Saving here sets an override by hand. Without one the form starts from the tier's limits, so an
 * admin who raises one figure sees the others they are fixing along with it.
 */
function QuotaEditor({ user, quota, tier }: { user: AdminUser; quota: EnterpriseQuota | null; tier: Tier | null }) {
  const { t } = useTranslation(["admin", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const saveQuota = useSaveQuota();
  const deleteQuota = useDeleteQuota();
  const start = quota ?? tier;
  const form = useSchemaForm(QuotaForm, Object.fromEntries(FIELDS.map((f) => [f, start ? start[f] : ""])));
  const submit = form.handleSubmit((values) =>
    notice.run(saveQuota.mutateAsync({ userId: user.id, body: values }), t("overrideSaved")),
  );

  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      <LimitsSource user={user} quota={quota} tier={tier} />
      <Grid container spacing={2}>
        <FormFields
          control={form.control}
          fields={FIELDS.map((name) => ({
            name,
            type: "number",
            label: t(`admin.tierFields.${name}`),
            required: true,
            grid: HALF,
          }))}
        />
      </Grid>
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
          {t("saveOverride")}
        </Button>
        {quota && (
          <Button color="error" onClick={() => void notice.run(deleteQuota.mutateAsync(user.id), t("overrideRemoved"))}>
            {t("removeOverride")}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}

export default function AdminQuotasPage() {
  const { t } = useTranslation(["admin", "translation"], { nsMode: "fallback" });
  const [search, setSearch] = useState("");
  const users = useUserSearch(search.trim());
  const [selected, setSelected] = useState<AdminUser | null>(null);
  const quota = useQuota(selected?.id ?? "");
  const tiers = useTiers();
  const tier = tiers.data?.find((x) => x.id === selected?.tier_id) ?? null;
  return (
    <>
      <PageHeader title={t("nav.adminQuotas")} subtitle={t("quotasSubtitle")} />
      <Card>
        <CardContent>
          <Autocomplete
            options={users.data ?? []}
            loading={users.isPending}
            value={selected}
            onChange={(_, value) => setSelected(value)}
            onInputChange={(_, value, reason) => {
              if (reason === "input") setSearch(value);
            }}
            // The server filters by name, email and username; the typed text need not match the label.
            filterOptions={(options) => options}
            getOptionLabel={(u) => `${u.name} (${u.email})`}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            renderInput={(params) => <TextField {...params} label={t("admin.chooseUser")} />}
            sx={{ mb: 3, maxWidth: 480 }}
          />
          {selected && (quota.isPending || tiers.isPending) && <CircularProgress aria-label={t("common.loading")} />}
          {selected && (quota.isError || tiers.isError) && (
            <Typography color="error">{errorText(quota.error ?? tiers.error, t("common.failed"))}</Typography>
          )}
          {selected && quota.isSuccess && tiers.isSuccess && (
            <QuotaEditor
              key={`${selected.id}-${quota.dataUpdatedAt}-${tiers.dataUpdatedAt}`}
              user={selected}
              quota={quota.data}
              tier={tier}
            />
          )}
        </CardContent>
      </Card>
    </>
  );
}
