import ExpandMore from "@mui/icons-material/ExpandMore";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import ListItemIcon from "@mui/material/ListItemIcon";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router";
import { useAuth } from "../../lib/auth-context.ts";
import { NAV_GROUPS, type NavGroup, type NavItem } from "./nav-items.tsx";

const isActive = (item: NavItem, pathname: string) =>
  pathname === item.path || (item.path !== "/admin" && pathname.startsWith(`${item.path}/`));

/** One group of the row: a plain link when it holds one entry, else a menu of its entries. */
function GroupButton({ group }: { group: NavGroup }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const active = group.items.some((item) => isActive(item, pathname));
  const [only] = group.items;
  if (only && group.items.length === 1) {
    return (
      <Button component={NavLink} to={only.path} startIcon={only.icon} color={active ? "primary" : "inherit"}>
        {t(`nav.${only.key}`)}
      </Button>
    );
  }
  return (
    <>
      <Button
        color={active ? "primary" : "inherit"}
        endIcon={<ExpandMore />}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t(`nav.groups.${group.key}`)}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {group.items.map((item) => (
          <MenuItem
            key={item.key}
            component={NavLink}
            to={item.path}
            selected={isActive(item, pathname)}
            onClick={() => setAnchor(null)}
          >
            <ListItemIcon>{item.icon}</ListItemIcon>
            {t(`nav.${item.key}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/**
 * Horizontal navigation: the sidebar's groups in one row under the topbar, each group a menu, so
 * every entry stays reachable without the row running off-screen.
 */
export function HorizontalNav() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const groups = NAV_GROUPS.filter((g) => !g.superuserOnly || user?.is_superuser);
  return (
    <Box
      component="nav"
      aria-label={t("nav.label")}
      sx={{
        display: "flex",
        flexWrap: "wrap",
        gap: 0.5,
        px: 2,
        py: 1,
        borderBottom: 1,
        borderColor: "divider",
        bgcolor: "background.paper",
        "& .MuiButton-root": { whiteSpace: "nowrap" },
      }}
    >
      {groups.map((group) => (
        <GroupButton key={group.key} group={group} />
      ))}
    </Box>
  );
}
