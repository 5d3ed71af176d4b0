import AddIcon from "@mui/icons-material/Add";
import UnfoldMoreIcon from "@mui/icons-material/UnfoldMore";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { useOpenedOnce } from "../../../components/opened-once.ts";
import { useAuth } from "../../../lib/auth-context.ts";
import { useSnackbar } from "../../../lib/snackbar.ts";
import { useSwitchWorkspace } from "../api/workspace-api.ts";

// The create dialog (a form with its validation) loads when first opened: the switcher sits in
// the topbar of every signed-in page, whose first load should not carry it.
const CreateWorkspaceDialog = lazy(() =>
  import("./create-workspace-dialog.tsx").then((module) => ({ default: module.CreateWorkspaceDialog })),
);

/** Topbar menu: switch between your workspaces or create one. */
export function WorkspaceSwitcher() {
  const { t } = useTranslation();
  const { user, workspace, workspaces } = useAuth();
  const switchWorkspace = useSwitchWorkspace();
  const { enqueueSnackbar } = useSnackbar();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [creating, setCreating] = useState(false);
  const createMounted = useOpenedOnce(creating);

  const choose = async (id: string) => {
    setAnchor(null);
    if (id === workspace?.id) return;
    try {
      await switchWorkspace.mutateAsync(id);
      enqueueSnackbar(t("workspaces.switched"), { variant: "success" });
    } catch (error) {
      enqueueSnackbar(error instanceof Error ? error.message : t("workspaces.switchFailed"), { variant: "error" });
    }
  };

  return (
    <>
      <Button
        color="inherit"
        endIcon={<UnfoldMoreIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-haspopup="menu"
        aria-label={t("workspaces.switcherLabel", { name: workspace?.name ?? "" })}
        sx={{ textTransform: "none", maxWidth: 240 }}
      >
        <span style={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
          {/* No user yet: the build's signed-in frame, drawn before anyone's workspaces are known. */}
          {workspace?.name ?? (user ? t("workspaces.none") : "")}
        </span>
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {workspaces.map((w) => (
          <MenuItem key={w.id} selected={w.id === workspace?.id} onClick={() => void choose(w.id)}>
            <ListItemText primary={w.name} secondary={t(`workspaces.roles.${w.role}`)} />
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setCreating(true);
          }}
        >
          <ListItemIcon>
            <AddIcon fontSize="small" />
          </ListItemIcon>
          {t("workspaces.createTitle")}
        </MenuItem>
      </Menu>
      {createMounted && (
        <Suspense fallback={null}>
          <CreateWorkspaceDialog open={creating} onClose={() => setCreating(false)} />
        </Suspense>
      )}
    </>
  );
}
