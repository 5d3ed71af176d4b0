import Box from "@mui/material/Box";
import Drawer from "@mui/material/Drawer";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import ListSubheader from "@mui/material/ListSubheader";
import type { Theme } from "@mui/material/styles";
import Tooltip from "@mui/material/Tooltip";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router";
import { useAuth } from "../../lib/auth-context.ts";
import { usePreferences } from "../customizer/preferences-context.tsx";
import { Brand } from "./brand.tsx";
import { NAV_GROUPS } from "./nav-items.tsx";

function NavList({ compact, onNavigate }: { compact: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { pathname } = useLocation();
  const groups = NAV_GROUPS.filter((g) => !g.superuserOnly || user?.is_superuser);
  return (
    <Box component="nav" aria-label={t("nav.label")} sx={{ overflowY: "auto", flex: 1, py: 1 }}>
      {groups.map((group) => (
        <List
          key={group.key}
          dense
          subheader={
            compact ? undefined : (
              <ListSubheader
                disableSticky
                sx={{
                  bgcolor: "transparent",
                  lineHeight: "32px",
                  fontWeight: 700,
                  textTransform: "uppercase",
                  fontSize: 11,
                }}
              >
                {t(`nav.groups.${group.key}`)}
              </ListSubheader>
            )
          }
        >
          {group.items.map((item) => {
            const active = pathname === item.path || (item.path !== "/admin" && pathname.startsWith(`${item.path}/`));
            const label = t(`nav.${item.key}`);
            const button = (
              <ListItemButton
                component={NavLink}
                to={item.path}
                selected={active}
                onClick={onNavigate}
                aria-label={compact ? label : undefined}
                sx={{ mx: 1, borderRadius: 1, justifyContent: compact ? "center" : "flex-start", minHeight: 40 }}
              >
                <ListItemIcon sx={{ minWidth: compact ? 0 : 36, color: active ? "primary.main" : undefined }}>
                  {item.icon}
                </ListItemIcon>
                {!compact && <ListItemText primary={label} />}
              </ListItemButton>
            );
            return (
              <li key={item.key}>
                {compact ? (
                  <Tooltip title={label} placement="right">
                    {button}
                  </Tooltip>
                ) : (
                  button
                )}
              </li>
            );
          })}
        </List>
      ))}
    </Box>
  );
}

/** Vertical navigation: 270 px, a 87 px mini variant when collapsed that expands on hover, a drawer on mobile. */
export function Sidebar() {
  const { preferences, update } = usePreferences();
  const isDesktop = useMediaQuery((theme: Theme) => theme.breakpoints.up("lg"));
  const compact = preferences.collapsed && !preferences.sidebarHover;
  const width = compact ? preferences.miniSidebarWidth : preferences.sidebarWidth;

  // The build's pre-rendered signed-in frame (drawn where there is no window) serves every screen:
  // it carries the permanent sidebar too, which CSS alone shows from the lg breakpoint up.
  const permanent = isDesktop || typeof window === "undefined";
  return (
    <>
      {!isDesktop && (
        <Drawer
          open={preferences.mobileSidebar}
          onClose={() => update({ mobileSidebar: false })}
          slotProps={{ paper: { sx: { width: preferences.sidebarWidth } } }}
        >
          <Brand compact={false} />
          <NavList compact={false} onNavigate={() => update({ mobileSidebar: false })} />
        </Drawer>
      )}
      {permanent && (
        <Box
          sx={{
            display: { xs: "none", lg: "block" },
            width: preferences.collapsed ? preferences.miniSidebarWidth : preferences.sidebarWidth,
            flexShrink: 0,
            transition: "width .2s",
          }}
        >
          <Drawer
            variant="permanent"
            onMouseEnter={() => preferences.collapsed && update({ sidebarHover: true })}
            onMouseLeave={() => preferences.sidebarHover && update({ sidebarHover: false })}
            slotProps={{ paper: { sx: { width, transition: "width .2s", overflowX: "hidden", display: "flex" } } }}
          >
            <Brand compact={compact} />
            <NavList compact={compact} />
          </Drawer>
        </Box>
      )}
    </>
  );
}
