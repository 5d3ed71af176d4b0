import ExpandMore from "@mui/icons-material/ExpandMore";
import OpenInNew from "@mui/icons-material/OpenInNew";
import Accordion from "@mui/material/Accordion";
import AccordionDetails from "@mui/material/AccordionDetails";
import AccordionSummary from "@mui/material/AccordionSummary";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { TestResult } from "@parley/contract";
import { Fragment, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { callLogPath } from "../paths.ts";
import { CallRecording, LiveTranscript } from "./call-extras.tsx";
import { CallMoments } from "./call-moments.tsx";
import { ExpectationResults } from "./expectation-results.tsx";
import { formatCost, formatMs } from "./outcome.ts";
import { OutcomeChip } from "./outcome-chip.tsx";

/** One call of a case: its status and figures, opened for its expectations, live words, call log and recording. */
export function ResultCard({ result, showAttempt }: { result: TestResult; showAttempt: boolean }) {
  const { t } = useTranslation("test-suites");
  const running = result.status === "running";
  const figures = result.figures;
  // Opens by itself when its call starts, so the live words show; the viewer may close it again.
  const [open, setOpen] = useState(running);
  useEffect(() => {
    if (running) setOpen(true);
  }, [running]);
  const title = showAttempt ? t("result.attempt", { n: result.attempt }) : t("result.call");
  return (
    <Accordion
      disableGutters
      variant="outlined"
      expanded={open}
      onChange={(_e, next) => setOpen(next)}
      data-result={result.id}
    >
      <AccordionSummary
        expandIcon={<ExpandMore />}
        aria-controls={`result-${result.id}`}
        id={`result-${result.id}-summary`}
      >
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: "center", flexWrap: "wrap" }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          <OutcomeChip status={result.status} />
          {figures && (
            <Typography variant="body2" color="text.secondary">
              {[
                `p95 ${formatMs(figures.latency_p95_ms)}`,
                t("result.turns", { n: figures.caller_turns }),
                t("result.seconds", { n: Math.round(figures.duration_seconds) }),
                formatCost(figures.cost),
              ].map((part, i) => (
                <Fragment key={part}>
                  {i > 0 && " · "}
                  <bdi>{part}</bdi>
                </Fragment>
              ))}
            </Typography>
          )}
        </Stack>
      </AccordionSummary>
      <AccordionDetails id={`result-${result.id}`}>
        <Stack spacing={2}>
          {result.error && <Alert severity="warning">{result.error}</Alert>}
          {running &&
            (result.call_id ? (
              <LiveTranscript callId={result.call_id} />
            ) : (
              <Typography variant="body2" color="text.secondary">
                {t("result.starting")}
              </Typography>
            ))}
          {result.status === "pending" && (
            <Typography variant="body2" color="text.secondary">
              {t("result.pending")}
            </Typography>
          )}
          {result.expectations.length > 0 && <ExpectationResults results={result.expectations} />}
          {!running && <CallMoments turns={result.caller_turns} events={result.call_events} />}
          {result.call_id && !running && (
            <Stack spacing={1}>
              <Typography variant="subtitle2" component="h4">
                {t("result.recording")}
              </Typography>
              <CallRecording callId={result.call_id} />
            </Stack>
          )}
          {result.call_id && (
            <div>
              <Button component={RouterLink} to={callLogPath(result.call_id)} size="small" startIcon={<OpenInNew />}>
                {t("result.openCallLog")}
              </Button>
            </div>
          )}
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
}
