import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import type { SubjectRecords } from "@parley/contract";
import { useTranslation } from "react-i18next";

/**
 * Asks before erasing a person, naming what goes (per kind, with the counts found) and what stays,
 * since it cannot be undone. The button spins while the erasure runs; closing waits for it.
 */
export function EraseSubjectDialog(props: {
  open: boolean;
  who: string;
  records: SubjectRecords;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(["privacy", "translation"], { nsMode: "fallback" });
  const { calls, campaign_contacts, do_not_call } = props.records;
  const recordings = calls.filter((c) => c.has_recording).length;
  const goes = [
    calls.length > 0 && t("subject.erase.calls", { count: calls.length }),
    recordings > 0 && t("subject.erase.recordings", { count: recordings }),
    campaign_contacts.length > 0 && t("subject.erase.contacts", { count: campaign_contacts.length }),
    do_not_call.length > 0 && t("subject.erase.doNotCall", { count: do_not_call.length }),
  ].filter((line): line is string => typeof line === "string");
  const close = () => {
    if (!props.busy) props.onClose();
  };
  return (
    <Dialog
      open={props.open}
      onClose={close}
      aria-labelledby="erase-subject-title"
      aria-describedby="erase-subject-text"
    >
      <DialogTitle id="erase-subject-title">{t("subject.erase.title")}</DialogTitle>
      <DialogContent id="erase-subject-text">
        <DialogContentText sx={{ mb: 1 }}>
          {t("subject.erase.intro")}{" "}
          <bdi dir="ltr" style={{ fontWeight: 600 }}>
            {props.who}
          </bdi>
        </DialogContentText>
        <Typography component="ul" variant="body2" sx={{ m: 0, mb: 1.5, ps: 3 }}>
          {goes.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </Typography>
        <DialogContentText variant="body2">{t("subject.erase.kept")}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={props.busy}>
          {t("common.cancel")}
        </Button>
        <Button
          color="error"
          variant="contained"
          onClick={props.onConfirm}
          disabled={props.busy}
          startIcon={props.busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
        >
          {props.busy ? t("subject.erase.erasing") : t("subject.erase.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
