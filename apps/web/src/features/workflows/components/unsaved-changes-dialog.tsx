import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { Blocker } from "react-router";

/** Asks before leaving a workflow with unsaved changes; staying is the default. */
export function UnsavedChangesDialog({ blocker }: { blocker: Blocker }) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={blocker.state === "blocked"}
      onClose={() => blocker.reset?.()}
      aria-labelledby={titleId}
      aria-describedby={textId}
    >
      <DialogTitle id={titleId}>{t("leave.title")}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{t("leave.text")}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => blocker.reset?.()} autoFocus>
          {t("leave.stay")}
        </Button>
        <Button color="error" variant="contained" onClick={() => blocker.proceed?.()}>
          {t("leave.leave")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
