import EmojiEventsOutlined from "@mui/icons-material/EmojiEventsOutlined";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Experiment, ExperimentAction } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { useDates } from "../../../lib/dates-in-language.ts";
import { useSnackbar } from "../../../lib/snackbar.ts";
import { useDeleteExperiment, useExperimentAction, usePromoteVariant } from "../api/experiments-api.ts";
import { ExperimentResultsView } from "./experiment-results.tsx";

/** The moves each state allows (the server's rules: draft → running ⇄ paused → ended). */
const ACTIONS: Record<Experiment["status"], readonly ExperimentAction[]> = {
  draft: ["start", "end"],
  running: ["pause", "end"],
  paused: ["resume", "end"],
  ended: [],
};

const STATUS_COLOURS = { draft: "default", running: "success", paused: "warning", ended: "default" } as const;

/** What is being confirmed: a state change, a promotion, or deleting a draft. */
type Pending = { kind: "action"; action: ExperimentAction } | { kind: "promote"; version: number } | { kind: "delete" };

/** One experiment: its state, split and channel, its moves (each confirmed), results and the winner's promotion. */
export function ExperimentCard(props: { assistantId: string; experiment: Experiment }) {
  const { t } = useTranslation("assistants");
  const { enqueueSnackbar } = useSnackbar();
  const dates = useDates();
  const { experiment } = props;
  const act = useExperimentAction(props.assistantId);
  const promote = usePromoteVariant(props.assistantId);
  const remove = useDeleteExperiment(props.assistantId);
  const [pending, setPending] = useState<Pending | null>(null);
  const busy = act.isPending || promote.isPending || remove.isPending;
  const headingId = `experiment-${experiment.id}`;
  const canPromote = experiment.status !== "draft" && experiment.winner_version === null;

  const run = async (step: Pending) => {
    try {
      if (step.kind === "action") {
        await act.mutateAsync({ experimentId: experiment.id, action: step.action });
        enqueueSnackbar(t(`experiments.done.${step.action}`, { name: experiment.name }), { variant: "success" });
      } else if (step.kind === "promote") {
        await promote.mutateAsync({ experimentId: experiment.id, version: step.version });
        enqueueSnackbar(t("experiments.promoted", { number: step.version }), { variant: "success" });
      } else {
        await remove.mutateAsync(experiment.id);
        enqueueSnackbar(t("experiments.deleted", { name: experiment.name }), { variant: "success" });
      }
    } catch (error) {
      enqueueSnackbar(errorText(error, t("notices.failed")), { variant: "error" });
    } finally {
      setPending(null);
    }
  };

  const confirmTexts = (step: Pending) => {
    if (step.kind === "action") {
      return {
        title: t(`experiments.confirm.${step.action}Title`, { name: experiment.name }),
        text: t(`experiments.confirm.${step.action}Text`),
        confirm: t(`experiments.actions.${step.action}`),
      };
    }
    if (step.kind === "promote") {
      return {
        title: t("experiments.confirm.promoteTitle", { number: step.version }),
        text: t("experiments.confirm.promoteText", { number: step.version }),
        confirm: t("experiments.promote", { number: step.version }),
      };
    }
    return {
      title: t("experiments.confirm.deleteTitle"),
      text: t("experiments.confirm.deleteText"),
      confirm: t("experiments.delete"),
    };
  };
  const texts = pending ? confirmTexts(pending) : null;

  return (
    <Paper variant="outlined" component="article" aria-labelledby={headingId} sx={{ p: 2, mb: 2, minWidth: 0 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 1, mb: 1 }}>
        <Typography
          id={headingId}
          variant="subtitle1"
          component="h3"
          dir="auto"
          sx={{ fontWeight: 600, overflowWrap: "anywhere" }}
        >
          {experiment.name}
        </Typography>
        <Chip
          size="small"
          data-status={experiment.status}
          color={STATUS_COLOURS[experiment.status]}
          label={t(`experiments.status.${experiment.status}`)}
        />
        {experiment.winner_version !== null && (
          <Chip
            size="small"
            icon={<EmojiEventsOutlined />}
            label={t("experiments.winner", { number: experiment.winner_version })}
          />
        )}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {[
          experiment.variants
            .map((variant) => `${t("versions.number", { number: variant.version })} ${variant.percent}%`)
            .join(" · "),
          t(`experiments.channels.${experiment.channel}`),
          experiment.started_at && t("experiments.startedAt", { time: dates.moment(experiment.started_at) }),
          experiment.ended_at && t("experiments.endedAt", { time: dates.moment(experiment.ended_at) }),
        ]
          .filter(Boolean)
          .join(" — ")}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: "wrap", gap: 1, mb: experiment.status === "draft" ? 0 : 2 }}>
        {ACTIONS[experiment.status].map((action) => (
          <Button
            key={action}
            size="small"
            variant={action === "start" || action === "resume" ? "contained" : "outlined"}
            disabled={busy}
            onClick={() => setPending({ kind: "action", action })}
          >
            {t(`experiments.actions.${action}`)}
          </Button>
        ))}
        {canPromote &&
          experiment.variants.map((variant) => (
            <Button
              key={variant.id}
              size="small"
              variant="outlined"
              color="success"
              startIcon={<EmojiEventsOutlined />}
              disabled={busy}
              onClick={() => setPending({ kind: "promote", version: variant.version })}
            >
              {t("experiments.promote", { number: variant.version })}
            </Button>
          ))}
        {experiment.status === "draft" && (
          <Button size="small" color="error" disabled={busy} onClick={() => setPending({ kind: "delete" })}>
            {t("experiments.delete")}
          </Button>
        )}
      </Stack>
      {experiment.status !== "draft" && (
        <ExperimentResultsView assistantId={props.assistantId} experiment={experiment} />
      )}
      <ConfirmDialog
        open={pending !== null}
        title={texts?.title ?? ""}
        text={texts?.text ?? ""}
        confirmLabel={texts?.confirm ?? ""}
        busy={busy}
        onConfirm={() => pending && void run(pending)}
        onClose={() => setPending(null)}
      />
    </Paper>
  );
}
