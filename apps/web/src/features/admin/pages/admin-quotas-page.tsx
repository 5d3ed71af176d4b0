import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import CircularProgress from "@mui/material/CircularProgress";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type AdminUser, type EnterpriseQuota, QuotaBody } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { HALF } from "../../../components/form-fields/field-spec.ts";
import { FormFields } from "../../../components/form-fields/form-fields.tsx";
import { numberField } from "../../../components/number-field.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { useDeleteQuota, useQuota, useSaveQuota, useUserSearch } from "../api/admin-api.ts";

const FIELDS = ["max_assistants", "minutes_per_month", "concurrent_calls", "max_workspaces"] as const;

const QuotaForm = QuotaBody.extend({
  max_assistants: numberField(QuotaBody.shape.max_assistants),
  minutes_per_month: numberField(QuotaBody.shape.minutes_per_month),
  concurrent_calls: numberField(QuotaBody.shape.concurrent_calls),
  max_workspaces: numberField(QuotaBody.shape.max_workspaces),
});

function QuotaEditor({ user, quota }: { user: AdminUser; quota: EnterpriseQuota | null }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const saveQuota = useSaveQuota();
  const deleteQuota = useDeleteQuota();
  const form = useSchemaForm(QuotaForm, Object.fromEntries(FIELDS.map((f) => [f, quota ? quota[f] : ""])));
  const submit = form.handleSubmit((values) =>
    notice.run(saveQuota.mutateAsync({ userId: user.id, body: values }), t("admin.quotaSaved")),
  );

  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      <Typography color="text.secondary">
        {quota ? t("admin.quotaAllocated", { count: quota.allocated_concurrency }) : t("admin.noQuota")}
      </Typography>
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
          {t("common.save")}
        </Button>
        {quota && (
          <Button
            color="error"
            onClick={() => void notice.run(deleteQuota.mutateAsync(user.id), t("admin.quotaRemoved"))}
          >
            {t("admin.removeQuota")}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}

export default function AdminQuotasPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const users = useUserSearch(search.trim());
  const [selected, setSelected] = useState<AdminUser | null>(null);
  const quota = useQuota(selected?.id ?? "");
  return (
    <>
      <PageHeader title={t("nav.adminQuotas")} subtitle={t("admin.quotasSubtitle")} />
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
          {selected && quota.isPending && <CircularProgress aria-label={t("common.loading")} />}
          {selected && quota.isError && (
            <Typography color="error">{errorText(quota.error, t("common.failed"))}</Typography>
          )}
          {selected && quota.isSuccess && (
            <QuotaEditor key={`${selected.id}-${quota.dataUpdatedAt}`} user={selected} quota={quota.data} />
          )}
        </CardContent>
      </Card>
    </>
  );
}
