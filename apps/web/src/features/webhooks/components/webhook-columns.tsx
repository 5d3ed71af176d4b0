import DeleteIcon from "@mui/icons-material/Delete";
import EditIcon from "@mui/icons-material/Edit";
import HistoryIcon from "@mui/icons-material/History";
import KeyIcon from "@mui/icons-material/Key";
import SendIcon from "@mui/icons-material/Send";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { WebhookEndpoint } from "@parley/contract";
import type { TFunction } from "i18next";
import type { Column } from "../../../components/data-table.tsx";
import type { KeyedAction } from "../../../components/resource-table.tsx";

export type WebhookAction = "test" | "deliveries" | "secret" | "edit" | "delete";

/** Per endpoint: send a test event, its delivery log, its secret, edit, delete (named by its URL). */
export const WEBHOOK_ACTIONS: KeyedAction<WebhookAction, WebhookEndpoint>[] = [
  { id: "test", icon: <SendIcon />, label: "testNamed", tooltip: "test" },
  { id: "deliveries", icon: <HistoryIcon />, label: "deliveriesNamed", tooltip: "deliveriesTitle" },
  { id: "secret", icon: <KeyIcon />, label: "secretNamed", tooltip: "secretTitle" },
  { id: "edit", icon: <EditIcon />, label: "editNamed", tooltip: "editTitle" },
  { id: "delete", icon: <DeleteIcon />, label: "deleteNamed", tooltip: "delete" },
];

/** Where each endpoint is, what it receives, whether it is on. */
export const webhookColumns = (t: TFunction): Column<WebhookEndpoint>[] => [
  {
    header: t("fields.url"),
    sx: { maxWidth: 320 },
    cell: (e) => (
      <Stack spacing={0.5}>
        <Typography variant="body2" dir="ltr" sx={{ wordBreak: "break-all", fontFamily: "monospace" }}>
          {e.url}
        </Typography>
        {e.description && (
          <Typography variant="caption" color="text.secondary">
            {e.description}
          </Typography>
        )}
      </Stack>
    ),
  },
  {
    header: t("fields.events"),
    cell: (e) => (
      <Stack direction="row" sx={{ flexWrap: "wrap", gap: 0.5 }}>
        {e.events.map((event) => (
          <Chip key={event} size="small" label={event} dir="ltr" />
        ))}
      </Stack>
    ),
  },
  {
    header: t("fields.status"),
    cell: (e) => (
      <Chip
        size="small"
        variant="outlined"
        color={e.enabled ? "success" : "default"}
        label={e.enabled ? t("enabled") : t("disabled")}
      />
    ),
  },
];
