import AccountTreeOutlined from "@mui/icons-material/AccountTreeOutlined";
import HistoryOutlined from "@mui/icons-material/HistoryOutlined";
import PublishOutlined from "@mui/icons-material/PublishOutlined";
import Redo from "@mui/icons-material/Redo";
import SaveOutlined from "@mui/icons-material/SaveOutlined";
import Undo from "@mui/icons-material/Undo";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { Workflow } from "@parley/contract";
import { useTranslation } from "react-i18next";

const mirrored = {
  transform: (theme: { direction: string }) => (theme.direction === "rtl" ? "scaleX(-1)" : undefined),
};

/** The history commands: their keyboard shortcuts and icons (mirrored in right-to-left pages). */
const HISTORY = {
  undo: { shortcut: "Control+Z", Icon: Undo },
  redo: { shortcut: "Control+Shift+Z", Icon: Redo },
} as const;

/** Undo or redo, named by its tooltip and aria label, with its keyboard shortcut announced. */
function HistoryButton(props: { command: keyof typeof HISTORY; onClick: () => void; disabled: boolean }) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { shortcut, Icon } = HISTORY[props.command];
  const label = t(`toolbar.${props.command}`);
  return (
    <Tooltip title={label}>
      {/* A disabled button fires no events: the span keeps the tooltip working. */}
      <span>
        <IconButton aria-label={label} aria-keyshortcuts={shortcut} onClick={props.onClick} disabled={props.disabled}>
          <Icon sx={mirrored} />
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** The builder's title with the draft's state, and its commands: undo, redo, layout, versions, save, publish. */
export function BuilderToolbar(props: {
  title: string;
  workflow: Workflow;
  dirty: boolean;
  canUndo: boolean;
  canRedo: boolean;
  busy: { saving: boolean; publishing: boolean };
  onUndo: () => void;
  onRedo: () => void;
  onLayout: () => void;
  onVersions: () => void;
  onSave: () => void;
  onPublish: () => void;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { workflow } = props;
  // Filled chips whose text meets AA contrast in both modes; "unsaved" is outlined in the warning
  // colour with the body text (white on MUI's orange is 3.1:1).
  const status = props.dirty
    ? { label: t("status.unsaved"), color: "default" as const, warn: true }
    : workflow.published_version === null
      ? { label: t("status.neverPublished"), color: "default" as const }
      : workflow.has_unpublished_changes
        ? { label: t("status.changed", { n: workflow.published_version }), color: "primary" as const }
        : { label: t("status.published", { n: workflow.published_version }), color: "success" as const };
  return (
    <Stack
      direction={{ xs: "column", md: "row" }}
      spacing={1}
      sx={{ alignItems: { md: "center" }, justifyContent: "space-between" }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: "center", minWidth: 0 }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }} noWrap dir="auto">
          {props.title || t("untitled")}
        </Typography>
        <Chip
          size="small"
          label={status.label}
          color={status.color}
          variant={"warn" in status ? "outlined" : "filled"}
          sx={"warn" in status ? { borderColor: "warning.main", borderWidth: 2, color: "text.primary" } : undefined}
          data-testid="workflow-status"
        />
      </Stack>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <HistoryButton command="undo" onClick={props.onUndo} disabled={!props.canUndo} />
        <HistoryButton command="redo" onClick={props.onRedo} disabled={!props.canRedo} />
        <Button startIcon={<AccountTreeOutlined />} onClick={props.onLayout}>
          {t("toolbar.layout")}
        </Button>
        <Button startIcon={<HistoryOutlined />} onClick={props.onVersions}>
          {t("toolbar.versions")}
        </Button>
        <Button
          variant={props.dirty ? "contained" : "outlined"}
          startIcon={<SaveOutlined />}
          onClick={props.onSave}
          disabled={!props.dirty || props.busy.saving}
        >
          {t("toolbar.save")}
        </Button>
        <Button
          variant="contained"
          color="success"
          startIcon={<PublishOutlined />}
          onClick={props.onPublish}
          disabled={props.busy.publishing || props.busy.saving}
        >
          {t("toolbar.publish")}
        </Button>
      </Stack>
    </Stack>
  );
}
