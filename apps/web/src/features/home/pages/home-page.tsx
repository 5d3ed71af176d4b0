import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Grid from "@mui/material/Grid";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import { useAuth } from "../../auth/auth-context.ts";

/** The signed-in landing page: who you are and the workspaces you belong to. */
export default function HomePage() {
  const { user, workspace, workspaces } = useAuth();
  return (
    <>
      <Typography variant="h4" component="h1" gutterBottom>
        Welcome, {user?.name}
      </Typography>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                Current workspace
              </Typography>
              <Typography variant="h5">{workspace?.name ?? "No workspace"}</Typography>
              {workspace && (
                <Typography color="text.secondary">
                  Role: {workspace.role} · Concurrent calls allowed: {workspace.concurrency_limit}
                </Typography>
              )}
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                Your workspaces
              </Typography>
              <List dense>
                {workspaces.map((w) => (
                  <ListItem key={w.id} secondaryAction={<Chip size="small" label={w.role} />}>
                    <ListItemText primary={w.name} secondary={w.id === workspace?.id ? "Current" : undefined} />
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
