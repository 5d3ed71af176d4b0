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
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSnackbar } from "notistack";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { allUsersQuery, deleteQuota, quotaQuery, saveQuota } from "../api/admin-api.ts";

const FIELDS = ["max_assistants", "minutes_per_month", "concurrent_calls", "max_workspaces"] as const;

function QuotaForm({ user, quota }: { user: AdminUser; quota: EnterpriseQuota | null }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(FIELDS.map((f) => [f, quota ? String(quota[f]) : ""])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["admin"] });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = QuotaBody.safeParse(
      Object.fromEntries(FIELDS.map((f) => [f, values[f] === "" ? Number.NaN : Number(values[f])])),
    );
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    try {
      await saveQuota(user.id, parsed.data);
      enqueueSnackbar(t("admin.quotaSaved"), { variant: "success" });
      await refresh();
    } catch (error) {
      enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" });
    }
  };

  const remove = async () => {
    try {
      await deleteQuota(user.id);
      enqueueSnackbar(t("admin.quotaRemoved"), { variant: "success" });
      await refresh();
    } catch (error) {
      enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" });
    }
  };

  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      <Typography color="text.secondary">
        {quota ? t("admin.quotaAllocated", { count: quota.allocated_concurrency }) : t("admin.noQuota")}
      </Typography>
      <Grid container spacing={2}>
        {FIELDS.map((f) => (
          <Grid key={f} size={{ xs: 12, sm: 6 }}>
            <TextField
              fullWidth
              type="number"
              label={t(`admin.tierFields.${f}`)}
              value={values[f]}
              onChange={(e) => setValues((v) => ({ ...v, [f]: e.target.value }))}
              error={Boolean(errors[f])}
              helperText={errors[f]}
              required
            />
          </Grid>
        ))}
      </Grid>
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained">
          {t("common.save")}
        </Button>
        {quota && (
          <Button color="error" onClick={() => void remove()}>
            {t("admin.removeQuota")}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}

export default function AdminQuotasPage() {
  const { t } = useTranslation();
  const users = useQuery(allUsersQuery());
  const [selected, setSelected] = useState<AdminUser | null>(null);
  const quota = useQuery(quotaQuery(selected?.id ?? ""));
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
            <QuotaForm key={`${selected.id}-${quota.dataUpdatedAt}`} user={selected} quota={quota.data} />
          )}
        </CardContent>
      </Card>
    </>
  );
}
