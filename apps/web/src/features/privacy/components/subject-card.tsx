import DeleteForeverIcon from "@mui/icons-material/DeleteForever";
import DownloadIcon from "@mui/icons-material/Download";
import SearchIcon from "@mui/icons-material/Search";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { SubjectQuery } from "@parley/contract";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { SectionCard } from "../../../components/section-card.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { downloadSubjectZip, useEraseSubject, useSubjectRecords } from "../api/subject-api.ts";
import { EraseSubjectDialog } from "./erase-subject-dialog.tsx";
import { SubjectResults } from "./subject-results.tsx";

/** What was typed as the search's query: an address when it has an @, else a number (as stored, E.164). */
function queryOf(text: string): SubjectQuery | null {
  const value = text.trim();
  const parsed = SubjectQuery.safeParse(
    value.includes("@") ? { email: value } : { phone: value.replace(/[\s()-]/g, "") },
  );
  return parsed.success ? parsed.data : null;
}

/**
 * A data subject's rights on one card: find what the workspace holds about one phone number or email
 * address, download it as a ZIP (subject.json and the recordings), or erase it after a confirmation.
 */
export function SubjectCard() {
  const { t } = useTranslation(["privacy", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const [text, setText] = useState("");
  const [invalid, setInvalid] = useState(false);
  const [query, setQuery] = useState<SubjectQuery | null>(null);
  const [exporting, setExporting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const records = useSubjectRecords(query);
  const erase = useEraseSubject();
  const who = query?.phone ?? query?.email ?? "";
  const found = records.data;
  const anything = !!found && found.calls.length + found.campaign_contacts.length + found.do_not_call.length > 0;

  const search = (event: FormEvent) => {
    event.preventDefault();
    const next = queryOf(text);
    setInvalid(next === null);
    if (next) setQuery(next);
  };
  const exportZip = async () => {
    if (!query) return;
    setExporting(true);
    try {
      await notice.run(downloadSubjectZip(query), t("subject.exported"));
    } finally {
      setExporting(false);
    }
  };
  const confirmErase = async () => {
    if (!query) return;
    if (await notice.run(erase.mutateAsync(query), t("subject.erased"))) setConfirming(false);
  };

  return (
    <SectionCard title={t("subject.title")}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("subject.hint")}
      </Typography>
      <Box component="form" noValidate onSubmit={search} sx={{ display: "flex", gap: 1, flexWrap: "wrap", mb: 2 }}>
        <TextField
          size="small"
          label={t("subject.field")}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setInvalid(false);
          }}
          error={invalid}
          helperText={invalid ? t("subject.invalid") : t("subject.fieldHint")}
          slotProps={{ htmlInput: { dir: "ltr", autoComplete: "off", spellCheck: false } }}
          sx={{ flex: "1 1 240px", maxWidth: 420 }}
        />
        <Button type="submit" variant="outlined" startIcon={<SearchIcon />} sx={{ alignSelf: "flex-start", mt: "2px" }}>
          {t("subject.search")}
        </Button>
      </Box>
      {query && records.isPending && <ListSkeleton label={t("common.loading")} />}
      {records.error && <Alert severity="error">{errorText(records.error, t("common.failed"))}</Alert>}
      {found && (
        <>
          <SubjectResults records={found} who={who} />
          <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", mt: 2 }}>
            <Button
              variant="contained"
              startIcon={exporting ? <CircularProgress size={16} color="inherit" aria-hidden /> : <DownloadIcon />}
              disabled={!anything || exporting}
              onClick={() => void exportZip()}
            >
              {exporting ? t("subject.exporting") : t("subject.export")}
            </Button>
            <Button
              color="error"
              startIcon={<DeleteForeverIcon />}
              disabled={!anything || erase.isPending}
              onClick={() => setConfirming(true)}
            >
              {t("subject.eraseButton")}
            </Button>
          </Box>
          <EraseSubjectDialog
            open={confirming}
            who={who}
            records={found}
            busy={erase.isPending}
            onConfirm={() => void confirmErase()}
            onClose={() => setConfirming(false)}
          />
        </>
      )}
    </SectionCard>
  );
}
