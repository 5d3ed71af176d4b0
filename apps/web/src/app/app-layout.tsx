import LogoutIcon from "@mui/icons-material/Logout";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Container from "@mui/material/Container";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import { useSnackbar } from "notistack";
import { Suspense } from "react";
import { Outlet, useNavigate } from "react-router";
import { CenteredSpinner } from "../components/centered-spinner.tsx";
import { paths } from "../config/paths.ts";
import { useAuth } from "../features/auth/auth-context.ts";

/** The signed-in frame: top bar with the workspace switcher and sign-out, then the page. */
export function AppLayout() {
  const { user, workspace, workspaces, switchWorkspace, logout } = useAuth();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();

  const onSwitch = async (id: string) => {
    try {
      await switchWorkspace(id);
      enqueueSnackbar("Workspace switched", { variant: "success" });
    } catch (error) {
      enqueueSnackbar(error instanceof Error ? error.message : "Failed to switch workspace", { variant: "error" });
    }
  };

  return (
    <Box sx={{ minHeight: "100vh", bgcolor: "background.default" }}>
      <AppBar position="sticky" color="inherit" elevation={1} sx={{ height: 70, justifyContent: "center" }}>
        <Toolbar sx={{ gap: 2 }}>
          <Typography variant="h6" component="span" sx={{ fontWeight: 700, color: "primary.main", flexGrow: 1 }}>
            Parley
          </Typography>
          {workspaces.length > 0 && (
            <TextField
              select
              size="small"
              label="Workspace"
              value={workspace?.id ?? ""}
              onChange={(event) => void onSwitch(event.target.value)}
              sx={{ minWidth: 200 }}
            >
              {workspaces.map((w) => (
                <MenuItem key={w.id} value={w.id}>
                  {w.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          <Typography variant="body2" sx={{ display: { xs: "none", sm: "block" } }}>
            {user?.name}
          </Typography>
          <Button
            startIcon={<LogoutIcon />}
            onClick={async () => {
              await logout();
              navigate(paths.login);
            }}
          >
            Sign out
          </Button>
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="lg" sx={{ py: 4 }}>
        <Suspense fallback={<CenteredSpinner />}>
          <Outlet />
        </Suspense>
      </Container>
    </Box>
  );
}
