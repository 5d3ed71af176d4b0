import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import Typography from "@mui/material/Typography";
import type { Squad } from "@parley/contract";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";

/** The talk page set up for a squad's test call that starts at `member` (its assistant preselected). */
export function squadCallPath(squad: Squad, member: Squad["members"][number]): string {
  const query = new URLSearchParams({ assistantId: member.assistant_id, squad: squad.id, member: member.name });
  return `/assistant?${query}`;
}

/** A squad's test call: choose the member it starts at; the talk page then runs it as a squad call. */
export function SquadTestCallDialog(props: { squad: Squad; onClose: () => void }) {
  const { t } = useTranslation(["squads", "translation"], { nsMode: "fallback" });
  const titleId = useId();
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t("testCall.title", { name: props.squad.name })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary">
          {t("testCall.hint")}
        </Typography>
        <List>
          {props.squad.members.map((member) => (
            <ListItem key={member.name} disableGutters>
              <Button component={RouterLink} to={squadCallPath(props.squad, member)} variant="outlined" fullWidth>
                {t("testCall.startAt", { member: member.name })}
              </Button>
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{t("common.cancel")}</Button>
      </DialogActions>
    </Dialog>
  );
}
