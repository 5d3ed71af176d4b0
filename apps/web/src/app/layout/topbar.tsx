import LogoutIcon from "@mui/icons-material/Logout";
import MenuIcon from "@mui/icons-material/Menu";
import MenuOpenIcon from "@mui/icons-material/MenuOpen";
import PersonOutline from "@mui/icons-material/PersonOutline";
import SettingsOutlined from "@mui/icons-material/SettingsOutlined";
import AppBar from "@mui/material/AppBar";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import type { Theme } from "@mui/material/styles";
import Toolbar from "@mui/material/Toolbar";
import Tooltip from "@mui/material/Tooltip";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { initialsOf } from "../../components/initials.ts";
import { paths } from "../../config/paths.ts";
import { WorkspaceSwitcher } from "../../features/workspaces/components/workspace-switcher.tsx";
import { useAuth } from "../../lib/auth-context.ts";
import { usePreferences } from "../customizer/preferences-context.tsx";
import { Brand } from "./brand.tsx";

export function Topbar({ onOpenCustomizer }: { onOpenCustomizer: () => void }) {
  const { t } = useTranslation();
  const { user, logout } = useAuth();
  const { preferences, update } = usePreferences();
  const navigate = useNavigate();
  const isDesktop = useMediaQuery((theme: Theme) => theme.breakpoints.up("lg"));
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // No user yet only in the build's signed-in frame (prerendered): the avatar is drawn empty.
  const initials = user ? initialsOf(user.name) : "";

  const toggleSidebar = () =>
    isDesktop
      ? update({ collapsed: !preferences.collapsed, sidebarHover: false })
      : update({ mobileSidebar: !preferences.mobileSidebar });

  return (
    <AppBar
      position="sticky"
      color="inherit"
      elevation={0}
      sx={{ height: preferences.topbarHeight, justifyContent: "center", borderBottom: 1, borderColor: "divider" }}
    >
      <Toolbar sx={{ gap: 1 }}>
        {preferences.horizontal && isDesktop ? (
          // No sidebar carries the name in the horizontal layout: the topbar does.
          <Brand compact={false} height={preferences.topbarHeight} />
        ) : (
          <IconButton onClick={toggleSidebar} aria-label={t("layout.toggleSidebar")} edge="start">
            {preferences.collapsed && isDesktop ? <MenuIcon /> : <MenuOpenIcon />}
          </IconButton>
        )}
        <WorkspaceSwitcher />
        <Box sx={{ flexGrow: 1 }} />
        <Tooltip title={t("customizer.title")}>
          <IconButton onClick={onOpenCustomizer} aria-label={t("customizer.open")}>
            <SettingsOutlined />
          </IconButton>
        </Tooltip>
        <IconButton
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={initials ? `${initials} – ${t("layout.userMenu")}` : t("layout.userMenu")}
          aria-haspopup="menu"
        >
          <Avatar sx={{ width: 34, height: 34, bgcolor: "primary.main", fontSize: 14 }}>{initials}</Avatar>
        </IconButton>
        <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
          <MenuItem
            onClick={() => {
              setAnchor(null);
              navigate(paths.profile);
            }}
          >
            <ListItemIcon>
              <PersonOutline fontSize="small" />
            </ListItemIcon>
            {t("nav.profile")}
          </MenuItem>
          <MenuItem
            onClick={async () => {
              setAnchor(null);
              await logout();
              navigate(paths.login);
            }}
          >
            <ListItemIcon>
              <LogoutIcon fontSize="small" />
            </ListItemIcon>
            {t("auth.signOut")}
          </MenuItem>
        </Menu>
      </Toolbar>
    </AppBar>
  );
}
