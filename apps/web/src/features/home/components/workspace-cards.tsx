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
import { paths } from "../../../config/paths.ts";
import { useAuth } from "../../../lib/auth-context.ts";

/** The current workspace and the others you belong to (switch them in the top bar). */
export function WorkspaceCards() {
  // Role names and "No workspace" are shell strings shared with the workspace switcher.
  const { t } = useTranslation(["home", "translation"], { nsMode: "fallback" });
  const { workspace, workspaces } = useAuth();
  return (
    <Grid container spacing={3}>
      <Grid size={{ xs: 12, md: 6 }}>
        <Card sx={{ height: "100%" }}>
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              {t("currentWorkspace")}
            </Typography>
            <Typography variant="h5" component="p">
              {workspace?.name ?? t("workspaces.none")}
            </Typography>
            {workspace && (
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                {t("workspaceFacts", {
                  role: t(`workspaces.roles.${workspace.role}`),
                  limit: workspace.concurrency_limit,
                })}
              </Typography>
            )}
            <Button component={Link} to={paths.enterpriseQuota} variant="outlined">
              {t("manageWorkspace")}
            </Button>
          </CardContent>
        </Card>
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <Card sx={{ height: "100%" }}>
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              {t("yourWorkspaces")}
            </Typography>
            <List dense>
              {workspaces.map((w) => (
                <ListItem key={w.id} secondaryAction={<Chip size="small" label={t(`workspaces.roles.${w.role}`)} />}>
                  <ListItemText primary={w.name} secondary={w.id === workspace?.id ? t("current") : undefined} />
                </ListItem>
              ))}
            </List>
          </CardContent>
        </Card>
      </Grid>
    </Grid>
  );
}
