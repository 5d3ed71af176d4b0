import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import { type ReactNode, useId } from "react";

/**
 * A dialog that shows something to read or copy (a secret shown once, settings to paste elsewhere,
 * a log) and closes with its "Done" button; `actions` stand before that button.
 */
export function DoneDialog(props: {
  title: ReactNode;
  /** The feature's word for closing ("Done"). */
  doneLabel: string;
  onClose: () => void;
  maxWidth?: "xs" | "sm" | "md";
  /** A plain (text) button instead of the contained one, where the dialog's changes are applied at once. */
  plainDone?: boolean;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth={props.maxWidth ?? "sm"} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{props.title}</DialogTitle>
      <DialogContent>{props.children}</DialogContent>
      <DialogActions>
        {props.actions}
        <Button variant={props.plainDone ? undefined : "contained"} onClick={props.onClose}>
          {props.doneLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
