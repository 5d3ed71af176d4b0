import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import type { CallWidget } from "@parley/contract";
import type { TFunction } from "i18next";
import { Link as RouterLink } from "react-router";
import type { Column } from "../../../components/data-table.tsx";
import type { KeyedAction } from "../../../components/resource-table.tsx";
import { paths } from "../../../config/paths.ts";

/** Per widget: edit (in its editor page) and delete, each named by the widget. */
export const WIDGET_ACTIONS: KeyedAction<"edit" | "delete", CallWidget>[] = [
  { id: "edit", icon: <EditOutlined />, label: "editNamed" },
  { id: "delete", icon: <DeleteOutline />, label: "deleteNamed" },
];

/** Name (to the editor), assistant, the first sites, on or off. */
export const widgetColumns = (t: TFunction, assistantName: (id: string) => string): Column<CallWidget>[] => [
  {
    header: t("fields.name"),
    cell: (w) => (
      <Link component={RouterLink} to={`${paths.callWidgets}/${w.id}`} sx={{ fontWeight: 600 }}>
        {w.name}
      </Link>
    ),
  },
  { header: t("fields.assistant"), cell: (w) => assistantName(w.assistant_id) },
  {
    header: t("fields.origins"),
    sx: { maxWidth: 320, wordBreak: "break-all" },
    cell: (w) =>
      w.allowed_origins.length === 0 ? (
        t("noOrigins")
      ) : (
        <span dir="ltr">
          {w.allowed_origins.slice(0, 2).join(", ")}
          {w.allowed_origins.length > 2 ? ` +${w.allowed_origins.length - 2}` : ""}
        </span>
      ),
  },
  {
    header: t("fields.status"),
    cell: (w) => <Chip size="small" color={w.enabled ? "success" : "default"} label={w.enabled ? t("on") : t("off")} />,
  },
];
