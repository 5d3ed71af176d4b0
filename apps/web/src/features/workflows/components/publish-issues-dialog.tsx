import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import type { WorkflowIssue } from "@parley/contract";
import { useId } from "react";
import { useTranslation } from "react-i18next";

/** Why a publish was refused: the graph's issues, with the way to the issues list. */
export function PublishIssuesDialog(props: {
  refused: { message: string; issues: WorkflowIssue[] } | null;
  text: (issue: WorkflowIssue) => string;
  onClose: () => void;
  onShowIssues: () => void;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const titleId = useId();
  const issues = props.refused?.issues ?? [];
  return (
    <Dialog open={props.refused !== null} onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t("publish.refusedTitle")}</DialogTitle>
      <DialogContent>
        <DialogContentText>{props.refused?.message}</DialogContentText>
        <List dense aria-label={t("issues.title")}>
          {issues.map((issue, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: issues have no identity
            <ListItem key={index} disableGutters>
              <ListItemText primary={props.text(issue)} />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{t("common.close")}</Button>
        <Button variant="contained" onClick={props.onShowIssues} autoFocus>
          {t("publish.showIssues")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
