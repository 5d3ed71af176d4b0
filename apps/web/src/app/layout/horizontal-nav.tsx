import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router";
import { useAuth } from "../../features/auth/auth-context.ts";
import { NAV_GROUPS } from "./nav-items.tsx";

/** Horizontal navigation: the same entries as the sidebar, in one scrollable row under the topbar. */
export function HorizontalNav() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { pathname } = useLocation();
  const items = NAV_GROUPS.filter((g) => !g.superuserOnly || user?.is_superuser).flatMap((g) => g.items);
  return (
    <Box
      component="nav"
      aria-label={t("nav.label")}
      sx={{
        display: "flex",
        gap: 0.5,
        overflowX: "auto",
        px: 2,
        py: 1,
        borderBottom: 1,
        borderColor: "divider",
        bgcolor: "background.paper",
      }}
    >
      {items.map((item) => (
        <Button
          key={item.key}
          component={NavLink}
          to={item.path}
          startIcon={item.icon}
          size="small"
          color={pathname === item.path ? "primary" : "inherit"}
          sx={{ whiteSpace: "nowrap", flexShrink: 0 }}
        >
          {t(`nav.${item.key}`)}
        </Button>
      ))}
    </Box>
  );
}
