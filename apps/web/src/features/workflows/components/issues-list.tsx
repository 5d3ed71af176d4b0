import CheckCircleOutline from "@mui/icons-material/CheckCircleOutline";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { WorkflowIssue } from "@parley/contract";
import { useTranslation } from "react-i18next";

/** What keeps the workflow from being published, each leading to its node or edge. */
export function IssuesList(props: {
  issues: readonly WorkflowIssue[];
  text: (issue: WorkflowIssue) => string;
  onShow: (issue: WorkflowIssue) => void;
  onDeclare: (variable: string) => void;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  if (props.issues.length === 0) {
    return (
      <Alert icon={<CheckCircleOutline />} severity="success">
        {t("issues.none")}
      </Alert>
    );
  }
  return (
    <Stack spacing={1} component="section" aria-label={t("issues.title")}>
      <Typography variant="body2" color="text.secondary">
        {t("issues.hint")}
      </Typography>
      <List dense disablePadding>
        {props.issues.map((issue, index) => {
          const declare = issue.code === "missing_variable" && issue.variable;
          const located = Boolean(issue.node_id || issue.edge_id);
          const text = <ListItemText primary={props.text(issue)} slotProps={{ primary: { color: "error" } }} />;
          return (
            <ListItem
              // biome-ignore lint/suspicious/noArrayIndexKey: issues have no identity; the list is rebuilt on each edit
              key={index}
              disablePadding
              secondaryAction={
                declare ? (
                  <Button size="small" onClick={() => props.onDeclare(issue.variable ?? "")}>
                    {t("issues.declare")}
                  </Button>
                ) : undefined
              }
              sx={{ pe: declare ? 10 : 0 }}
            >
              {located ? (
                <ListItemButton onClick={() => props.onShow(issue)}>{text}</ListItemButton>
              ) : (
                <ListItem>{text}</ListItem>
              )}
            </ListItem>
          );
        })}
      </List>
    </Stack>
  );
}
