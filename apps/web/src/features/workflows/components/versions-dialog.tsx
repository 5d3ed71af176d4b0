import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import type { WorkflowVersion } from "@parley/contract";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { useWorkflowVersions } from "../api/workflows-api.ts";

/** The published versions, newest first; one can be loaded into the builder as the draft. */
export function VersionsDialog(props: {
  workflowId: string;
  open: boolean;
  onClose: () => void;
  onLoad: (version: WorkflowVersion) => void;
}) {
  const { t, i18n } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const titleId = useId();
  const versions = useWorkflowVersions(props.workflowId, props.open);
  const list = [...(versions.data ?? [])].sort((a, b) => b.version - a.version);
  const date = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t("versions.title")}</DialogTitle>
      <DialogContent>
        {versions.isPending ? (
          <ListSkeleton label={t("common.loading")} rows={3} />
        ) : versions.error ? (
          <Alert severity="error">{errorText(versions.error, t("common.failed"))}</Alert>
        ) : list.length === 0 ? (
          <Alert severity="info">{t("versions.none")}</Alert>
        ) : (
          <List aria-label={t("versions.title")}>
            {list.map((version, index) => (
              <ListItem
                key={version.version}
                divider
                secondaryAction={
                  <Button size="small" onClick={() => props.onLoad(version)}>
                    {t("versions.load")}
                  </Button>
                }
                sx={{ pe: 16 }}
              >
                <ListItemText
                  primary={`${t("versions.version", { n: version.version })}${index === 0 ? ` · ${t("versions.live")}` : ""}`}
                  secondary={t("versions.detail", {
                    date: date(version.published_at),
                    count: version.graph.nodes.length,
                  })}
                />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
