import Cancel from "@mui/icons-material/Cancel";
import CheckCircle from "@mui/icons-material/CheckCircle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Collapse from "@mui/material/Collapse";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ExpectationResult } from "@parley/contract";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { EvidenceView } from "./evidence-view.tsx";

/** Each expectation of a result: passed or failed, in words and icon, the reason, and its evidence on demand. */
export function ExpectationResults({ results }: { results: readonly ExpectationResult[] }) {
  const { t } = useTranslation("test-suites");
  return (
    <Box component="ul" aria-label={t("expectation.heading")} sx={{ listStyle: "none", p: 0, m: 0 }}>
      {results.map((result) => (
        <ExpectationRow key={result.index} result={result} />
      ))}
    </Box>
  );
}

function ExpectationRow({ result }: { result: ExpectationResult }) {
  const { t } = useTranslation("test-suites");
  const [open, setOpen] = useState(!result.passed);
  const evidenceId = useId();
  const verdict = result.passed ? t("expectation.passed") : t("expectation.failed");
  return (
    <Box component="li" data-passed={result.passed} sx={{ py: 1, borderTop: 1, borderColor: "divider" }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
        {result.passed ? (
          <CheckCircle color="success" fontSize="small" titleAccess={verdict} sx={{ mt: 0.25 }} />
        ) : (
          <Cancel color="error" fontSize="small" titleAccess={verdict} sx={{ mt: 0.25 }} />
        )}
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }} dir="auto">
            {result.label}
          </Typography>
          <Typography variant="body2" color="text.secondary" dir="auto" sx={{ overflowWrap: "anywhere" }}>
            {result.reason}
          </Typography>
          <Button
            size="small"
            aria-expanded={open}
            aria-controls={evidenceId}
            onClick={() => setOpen(!open)}
            sx={{ px: 0, minWidth: 0 }}
          >
            {open ? t("evidence.hide") : t("evidence.show")}
          </Button>
          <Collapse in={open} id={evidenceId}>
            <Box sx={{ pt: 1 }}>
              <EvidenceView evidence={result.evidence} />
            </Box>
          </Collapse>
        </Box>
      </Stack>
    </Box>
  );
}
