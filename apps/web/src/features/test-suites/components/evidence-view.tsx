import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ExpectationEvidence, TranscriptEntry } from "@parley/contract";
import { useTranslation } from "react-i18next";

/** "0:07": a moment of the call from its start. */
export const callMoment = (ms: number) => {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
};

/** One dated line of a call: when, who, what. */
export function TimedLine({ atMs, who, text }: { atMs: number; who: string; text: string }) {
  return (
    <Box component="li" sx={{ mb: 0.5 }}>
      <Typography variant="body2" component="span" color="text.secondary" dir="ltr" sx={{ mr: 1 }}>
        {callMoment(atMs)}
      </Typography>
      <Typography variant="body2" component="span" sx={{ fontWeight: 600, mr: 1 }}>
        {who}
      </Typography>
      <Typography variant="body2" component="span" dir="auto">
        {text}
      </Typography>
    </Box>
  );
}

/** Transcript lines, each with who spoke and when. */
export function TranscriptLines({ lines, label }: { lines: readonly TranscriptEntry[]; label: string }) {
  const { t } = useTranslation("test-suites");
  return (
    <Box component="ol" aria-label={label} sx={{ listStyle: "none", p: 0, m: 0 }}>
      {lines.map((line) => (
        <TimedLine
          key={`${line.at_ms}-${line.role}`}
          atMs={line.at_ms}
          who={t(`roles.${line.role}`)}
          text={line.text}
        />
      ))}
    </Box>
  );
}

/** What an expectation's verdict rests on: the lines, the tool calls and the figures it read. */
export function EvidenceView({ evidence }: { evidence: ExpectationEvidence }) {
  const { t } = useTranslation("test-suites");
  const figures = Object.entries(evidence.figures);
  if (evidence.transcript.length === 0 && evidence.tool_calls.length === 0 && figures.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {t("evidence.none")}
      </Typography>
    );
  return (
    <Stack spacing={1.5}>
      {evidence.transcript.length > 0 && (
        <div>
          <Typography variant="caption" color="text.secondary" component="p">
            {t("evidence.transcript")}
          </Typography>
          <TranscriptLines lines={evidence.transcript} label={t("evidence.transcript")} />
        </div>
      )}
      {evidence.tool_calls.length > 0 && (
        <div>
          <Typography variant="caption" color="text.secondary" component="p">
            {t("evidence.toolCalls")}
          </Typography>
          {evidence.tool_calls.map((call) => (
            <Typography
              key={`${call.at_ms}-${call.name}`}
              variant="body2"
              dir="ltr"
              sx={{ fontFamily: "monospace", overflowWrap: "anywhere" }}
            >
              {callMoment(call.at_ms)} {call.name}({call.arguments}) →{" "}
              {call.ok ? call.result : t("evidence.toolFailed", { result: call.result })}
            </Typography>
          ))}
        </div>
      )}
      {figures.length > 0 && (
        <div>
          <Typography variant="caption" color="text.secondary" component="p">
            {t("evidence.figures")}
          </Typography>
          <Box component="dl" sx={{ display: "grid", gridTemplateColumns: "max-content 1fr", columnGap: 2, m: 0 }}>
            {figures.map(([name, value]) => (
              <Box key={name} sx={{ display: "contents" }}>
                <Typography component="dt" variant="body2" color="text.secondary" dir="ltr">
                  {name}
                </Typography>
                <Typography component="dd" variant="body2" dir="ltr" sx={{ m: 0, overflowWrap: "anywhere" }}>
                  {value === null ? "—" : String(value)}
                </Typography>
              </Box>
            ))}
          </Box>
        </div>
      )}
    </Stack>
  );
}
