import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import CircularProgress from "@mui/material/CircularProgress";
import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import { AdminStats } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { useAdminStats } from "../api/admin-api.ts";

export default function AdminDashboardPage() {
  const { t } = useTranslation(["admin", "translation"], { nsMode: "fallback" });
  const stats = useAdminStats();
  return (
    <>
      <PageHeader title={t("nav.adminDashboard")} />
      {stats.isPending && <CircularProgress aria-label={t("common.loading")} />}
      {stats.isError && <Typography color="error">{errorText(stats.error, t("common.failed"))}</Typography>}
      {stats.data && (
        <Grid container spacing={3}>
          {AdminStats.keyof().options.map((key) => (
            <Grid key={key} size={{ xs: 12, sm: 6, md: 3 }}>
              <Card>
                <CardContent>
                  <Typography color="text.secondary">{t(`admin.stats.${key}`)}</Typography>
                  <Typography variant="h4" component="p" sx={{ fontWeight: 700 }}>
                    {stats.data[key]}
                  </Typography>
                </CardContent>
              </Card>
            </Grid>
          ))}
        </Grid>
      )}
    </>
  );
}
