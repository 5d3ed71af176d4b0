import Alert from "@mui/material/Alert";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import Typography from "@mui/material/Typography";
import type { KnowledgeDocument } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import { useDocumentLink } from "../../../api/documents.ts";
import { DoneDialog } from "../../../components/done-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { useNotice } from "../../../lib/use-notice.ts";

/** Which assistants may search this document: one checkbox per assistant, applied at once. */
export function LinkDialog({ document, onClose }: { document: KnowledgeDocument; onClose: () => void }) {
  const { t } = useTranslation("knowledge-base");
  const notice = useNotice();
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
      () => notice.success(t(on ? "linked" : "unlinked")),
      (error: unknown) => {
        mark(assistantId, !on);
        notice.failure(error);
      },
    );
  };
  return (
    <DoneDialog
      title={t("linkTitle", { name: document.name })}
      doneLabel={t("done")}
      onClose={onClose}
      maxWidth="xs"
      plainDone
    >
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
    </DoneDialog>
  );
}
