import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import { useDocumentSearch } from "../../../api/documents.ts";
import { errorText } from "../../../components/error-text.ts";

/** Ask a question and see the chunks an assistant (or the whole knowledge base) would retrieve. */
export function TryQuestion() {
  const { t } = useTranslation("knowledge-base");
  const assistants = useAssistants();
  const [draft, setDraft] = useState("");
  const [assistantId, setAssistantId] = useState("");
  const [asked, setAsked] = useState("");
  const search = useDocumentSearch(asked, assistantId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAsked(draft.trim());
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="try-question">
      <Typography variant="h6" component="h2" id="try-question" sx={{ mb: 1 }}>
        {t("tryTitle")}
      </Typography>
      <Stack component="form" onSubmit={submit} direction={{ xs: "column", md: "row" }} spacing={1}>
        <TextField
          label={t("question")}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          fullWidth
          size="small"
          slotProps={{ htmlInput: { dir: "auto" } }}
        />
        <TextField
          select
          label={t("asAssistant")}
          value={assistantId}
          onChange={(event) => setAssistantId(event.target.value)}
          size="small"
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">{t("allDocuments")}</MenuItem>
          {assistants.data?.map((a) => (
            <MenuItem key={a.id} value={a.id}>
              {a.name}
            </MenuItem>
          ))}
        </TextField>
        <Button type="submit" variant="contained" disabled={!draft.trim()}>
          {t("ask")}
        </Button>
      </Stack>
      {search.isFetching && <LinearProgress sx={{ mt: 2 }} aria-label={t("searching")} />}
      {search.error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorText(search.error, t("common.failed"))}
        </Alert>
      )}
      {search.data && (
        <Stack spacing={1} sx={{ mt: 2 }} aria-label={t("results")} role="list">
          <Typography variant="caption" color="text.secondary">
            {t(search.data.mode === "hybrid" ? "modeHybrid" : "modeKeyword")}
          </Typography>
          {search.data.results.length === 0 && <Typography color="text.secondary">{t("noResults")}</Typography>}
          {search.data.results.map((r) => (
            <Paper key={r.chunk_id} variant="outlined" sx={{ p: 1.5 }} role="listitem">
              <Typography variant="subtitle2" dir="auto">
                {r.document_name}
                {r.heading ? ` · ${r.heading}` : ""}
              </Typography>
              <Typography variant="body2" dir="auto" sx={{ whiteSpace: "pre-wrap" }}>
                {r.text}
              </Typography>
            </Paper>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
