import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Grid from "@mui/material/Grid";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageHeader } from "../../../components/page-header.tsx";
import { paths } from "../../../config/paths.ts";
import { useAuth } from "../../auth/auth-context.ts";

/** The signed-in landing page: the current workspace and the others you belong to. */
export default function HomePage() {
  const { t } = useTranslation();
  const { user, workspace, workspaces } = useAuth();
  return (
    <>
      <PageHeader title={t("home.welcome", { name: user?.name ?? "" })} />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                {t("home.currentWorkspace")}
              </Typography>
              <Typography variant="h5" component="p">
                {workspace?.name ?? t("workspaces.none")}
              </Typography>
              {workspace && (
                <Typography color="text.secondary" sx={{ mb: 2 }}>
                  {t("home.workspaceFacts", {
                    role: t(`workspaces.roles.${workspace.role}`),
                    count: workspace.concurrency_limit,
                  })}
                </Typography>
              )}
              <Button component={Link} to={paths.enterpriseQuota} variant="outlined">
                {t("home.manageWorkspace")}
              </Button>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                {t("home.yourWorkspaces")}
              </Typography>
              <List dense>
                {workspaces.map((w) => (
                  <ListItem key={w.id} secondaryAction={<Chip size="small" label={t(`workspaces.roles.${w.role}`)} />}>
                    <ListItemText primary={w.name} secondary={w.id === workspace?.id ? t("home.current") : undefined} />
                  </ListItem>
                ))}
              </List>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </>
  );
}
