import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { useTranslation } from "react-i18next";

/** Asks before a destructive action; the confirm button names the action. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={props.open} onClose={props.onClose} aria-labelledby="confirm-title" aria-describedby="confirm-text">
      <DialogTitle id="confirm-title">{props.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id="confirm-text">{props.text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{t("common.cancel")}</Button>
        <Button color="error" variant="contained" onClick={props.onConfirm} disabled={props.busy}>
          {props.confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
