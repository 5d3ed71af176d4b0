import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { useTranslation } from "react-i18next";
import type { Blocker } from "react-router";

/** Asks before leaving an assistant with unsaved changes; staying is the default. */
export function UnsavedChangesDialog({ blocker }: { blocker: Blocker }) {
  const { t } = useTranslation("assistants");
  const open = blocker.state === "blocked";
  return (
    <Dialog
      open={open}
      onClose={() => blocker.reset?.()}
      aria-labelledby="unsaved-title"
      aria-describedby="unsaved-text"
    >
      <DialogTitle id="unsaved-title">{t("editor.leaveTitle")}</DialogTitle>
      <DialogContent>
        <DialogContentText id="unsaved-text">{t("editor.leaveText")}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => blocker.reset?.()} autoFocus>
          {t("editor.stay")}
        </Button>
        <Button color="error" variant="contained" onClick={() => blocker.proceed?.()}>
          {t("editor.leave")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
