import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import Typography from "@mui/material/Typography";
import type { KnowledgeDocument } from "@parley/contract";
import { useSnackbar } from "notistack";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import { useDocumentLink } from "../../../api/documents.ts";
import { errorText } from "../../../components/error-text.ts";

/** Which assistants may search this document: one checkbox per assistant, applied at once. */
export function LinkDialog({ document, onClose }: { document: KnowledgeDocument; onClose: () => void }) {
  const { t } = useTranslation("knowledge-base");
  const { enqueueSnackbar } = useSnackbar();
  const titleId = useId();
  const assistants = useAssistants();
  const link = useDocumentLink();
  // The box follows the click at once; the list catches up when it is fetched again.
  const [linked, setLinked] = useState(() => new Set(document.agents.map((a) => a.id)));
  const mark = (assistantId: string, on: boolean) =>
    setLinked((current) => {
      const next = new Set(current);
      if (on) next.add(assistantId);
      else next.delete(assistantId);
      return next;
    });
  // A promise per toggle: mutate()'s callbacks would only report the latest of quick clicks.
  const toggle = (assistantId: string, on: boolean) => {
    mark(assistantId, on);
    link.mutateAsync({ assistantId, documentId: document.id, linked: on }).then(
      () => enqueueSnackbar(t(on ? "linked" : "unlinked"), { variant: "success" }),
      (error: unknown) => {
        mark(assistantId, !on);
        enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" });
      },
    );
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t("linkTitle", { name: document.name })}</DialogTitle>
      <DialogContent>
        {assistants.error ? (
          <Alert severity="error">{errorText(assistants.error, t("common.failed"))}</Alert>
        ) : assistants.data?.length === 0 ? (
          <Typography color="text.secondary">{t("noAssistants")}</Typography>
        ) : (
          <FormGroup>
            {assistants.data?.map((assistant) => (
              <FormControlLabel
                key={assistant.id}
                label={<span dir="auto">{assistant.name}</span>}
                control={
                  <Checkbox
                    checked={linked.has(assistant.id)}
                    onChange={(event) => toggle(assistant.id, event.target.checked)}
                  />
                }
              />
            ))}
          </FormGroup>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("done")}</Button>
      </DialogActions>
    </Dialog>
  );
}
