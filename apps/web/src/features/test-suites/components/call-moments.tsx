import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import type { CallerTurn, CallLogEvent } from "@parley/contract";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { TimedLine } from "./evidence-view.tsx";

interface Moment {
  atMs: number;
  who: "caller" | "call";
  text: string;
}

/** A caller turn in words: its keys, whether it cut in, what it said. */
function turnText(t: TFunction<"test-suites">, turn: CallerTurn): string {
  const parts = [t("moments.turn", { n: turn.turn })];
  if (turn.silent) parts.push(t("moments.silent"));
  if (turn.dtmf) parts.push(t("moments.pressed", { digits: turn.dtmf }));
  if (turn.interrupted) parts.push(t("moments.interrupted"));
  if (turn.text) parts.push(`“${turn.text}”`);
  return parts.join(" · ");
}

/** What the call's log says happened, for the events a test result shows. */
function eventText(t: TFunction<"test-suites">, event: CallLogEvent): string | null {
  switch (event.type) {
    case "dtmf":
      return event.direction === "in"
        ? t("moments.keysReceived", { digits: event.digits })
        : t("moments.keysSent", { digits: event.digits });
    case "interruption":
      return event.heard_text ? t("moments.bargeIn", { heard: event.heard_text }) : t("moments.bargeInSilent");
    case "transfer":
      return t("moments.transfer", { to: event.destination.name || event.destination.number });
    case "fault":
      return t("moments.fault", {
        stage: t(`moments.stages.${event.stage}`),
        provider: event.provider,
        action: t(`moments.actions.${event.action}`),
      });
    case "tool_skipped":
      return t("moments.toolSkipped", { name: event.name });
    case "ended":
      return t("moments.ended", { reason: event.reason });
    default:
      return null;
  }
}

/**
 * The caller's turns and how the assistant met them — keys received, barge-ins, transfers, faults —
 * in call order: what a case about interruptions or keys is read by, without opening the call log.
 */
export function CallMoments({ turns, events }: { turns: readonly CallerTurn[]; events: readonly CallLogEvent[] }) {
  const { t } = useTranslation("test-suites");
  const moments: Moment[] = [
    ...turns.map((turn) => ({ atMs: turn.started_at_ms, who: "caller" as const, text: turnText(t, turn) })),
    ...events.flatMap((event) => {
      const text = eventText(t, event);
      return text ? [{ atMs: event.at_ms, who: "call" as const, text }] : [];
    }),
  ].sort((a, b) => a.atMs - b.atMs);
  if (moments.length === 0) return null;
  return (
    <div>
      <Typography variant="subtitle2" component="h4">
        {t("moments.title")}
      </Typography>
      <Box component="ol" aria-label={t("moments.title")} sx={{ listStyle: "none", p: 0, m: 0 }}>
        {moments.map((moment) => (
          <TimedLine
            key={`${moment.atMs}-${moment.who}-${moment.text}`}
            atMs={moment.atMs}
            who={t(`moments.${moment.who}`)}
            text={moment.text}
          />
        ))}
      </Box>
    </div>
  );
}
