import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Grid from "@mui/material/Grid";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "./error-text.ts";

export interface FormDialogProps {
  title: string;
  /** "sm" unless the form needs room ("md"). */
  maxWidth?: "sm" | "md";
  onClose: () => void;
  /** Usually react-hook-form's handleSubmit(save); a save that fails throws. */
  onSubmit: (event: FormEvent) => Promise<unknown> | undefined;
  busy: boolean;
  /** A save that talks to another server takes a while: the dialog cannot be closed meanwhile. */
  lockWhileBusy?: boolean;
  submitLabel?: string;
  /** The submit button's label while busy, with a spinner when `busySpinner`. */
  busyLabel?: string;
  busySpinner?: boolean;
  failureFallback?: string;
  children: ReactNode;
}

/**
 * A create or edit dialog around a form. A submit that throws keeps the dialog and everything
 * typed, and shows why above the fields. The children are the fields, as grid items.
 */
export function FormDialog(props: FormDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const locked = props.busy && props.lockWhileBusy;
  const submit = async (event: FormEvent) => {
    setFailure(null);
    try {
      await props.onSubmit(event);
    } catch (error) {
      setFailure(errorText(error, props.failureFallback ?? t("common.failed")));
    }
  };
  return (
    <Dialog
      open
      onClose={locked ? undefined : props.onClose}
      fullWidth
      maxWidth={props.maxWidth ?? "sm"}
      aria-labelledby={titleId}
    >
      {/* The form is the paper's flex column, so the fields scroll and the buttons stay in view on short screens. */}
      <Box
        component="form"
        onSubmit={(event) => void submit(event)}
        noValidate
        sx={{ display: "flex", flexDirection: "column", minHeight: 0, flex: 1 }}
      >
        <DialogTitle id={titleId}>{props.title}</DialogTitle>
        <DialogContent>
          <Grid container spacing={2} sx={{ pt: 1 }}>
            {failure && (
              <Grid size={12}>
                <Alert severity="error">{failure}</Alert>
              </Grid>
            )}
            {props.children}
          </Grid>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose} disabled={locked}>
            {t("common.cancel")}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={props.busy}
            startIcon={
              props.busy && props.busySpinner ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined
            }
          >
            {props.busy && props.busyLabel ? props.busyLabel : (props.submitLabel ?? t("common.save"))}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
