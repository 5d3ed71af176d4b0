import AddOutlined from "@mui/icons-material/AddOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Button from "@mui/material/Button";
import FormHelperText from "@mui/material/FormHelperText";
import Grid from "@mui/material/Grid";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { ExperimentChannel } from "@parley/contract";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { useCreateExperiment } from "../api/experiments-api.ts";
import {
  checkExperiment,
  type ExperimentDraft,
  type ExperimentProblems,
  newExperimentDraft,
  percentTotal,
  serverProblems,
  toExperimentBody,
} from "../utils/experiment-form.ts";

const MAX_VARIANTS = 10;

/**
 * A new experiment: a name, the calls it splits (a channel or all), and versions with their shares
 * of the calls, adding up to 100. Problems show beside the row they are about, the server's too.
 */
export function ExperimentDialog(props: {
  assistantId: string;
  versions: readonly number[];
  onCreated: (name: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("assistants");
  const create = useCreateExperiment(props.assistantId);
  const [draft, setDraft] = useState<ExperimentDraft>(() => newExperimentDraft(props.versions));
  const [problems, setProblems] = useState<ExperimentProblems>({});
  const setRow = (index: number, change: Partial<ExperimentDraft["variants"][number]>) =>
    setDraft((current) => ({
      ...current,
      variants: current.variants.map((row, i) => (i === index ? { ...row, ...change } : row)),
    }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The dialog sits inside the editor's form in React's tree, where a submit bubbles even through
    // the portal: without this the editor would also save (and publish) its settings.
    event.stopPropagation();
    const found = checkExperiment(draft);
    const shown: ExperimentProblems = {};
    for (const [key, problem] of Object.entries(found)) if (problem) shown[key] = t(`experiments.problems.${problem}`);
    setProblems(shown);
    if (Object.keys(shown).length > 0) return;
    try {
      await create.mutateAsync(toExperimentBody(draft));
      props.onCreated(draft.name.trim());
    } catch (error) {
      const placed = serverProblems(error);
      setProblems(placed.problems);
      // What has no place in the form shows above it (the dialog's own failure line).
      if (placed.general || Object.keys(placed.problems).length === 0) throw error;
    }
  };

  const total = percentTotal(draft);
  return (
    <FormDialog
      title={t("experiments.createTitle")}
      onClose={props.onClose}
      onSubmit={submit}
      busy={create.isPending}
      submitLabel={t("experiments.create")}
      failureFallback={t("notices.failed")}
    >
      <Grid size={{ xs: 12, sm: 7 }}>
        <TextField
          label={t("experiments.name")}
          value={draft.name}
          onChange={(event) => setDraft({ ...draft, name: event.target.value })}
          error={Boolean(problems.name)}
          helperText={problems.name}
          required
          fullWidth
          autoFocus
          slotProps={{ htmlInput: { maxLength: 120, dir: "auto" } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 5 }}>
        <TextField
          select
          label={t("experiments.channel")}
          value={draft.channel}
          onChange={(event) => setDraft({ ...draft, channel: ExperimentChannel.parse(event.target.value) })}
          helperText={t("experiments.channelHelp")}
          fullWidth
        >
          {ExperimentChannel.options.map((channel) => (
            <MenuItem key={channel} value={channel}>
              {t(`experiments.channels.${channel}`)}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
      <Grid size={12}>
        <Typography variant="subtitle2" component="h3" id="variants-heading">
          {t("experiments.variants")}
        </Typography>
        <Stack
          component="ul"
          aria-labelledby="variants-heading"
          spacing={2}
          sx={{ listStyle: "none", p: 0, m: 0, mt: 1 }}
        >
          {draft.variants.map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place and removed by position
            <Stack component="li" key={index} direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
              <TextField
                select
                size="small"
                label={t("experiments.variantVersion", { index: index + 1 })}
                value={row.version}
                onChange={(event) => setRow(index, { version: Number(event.target.value) })}
                error={Boolean(problems[`variants.${index}.version`])}
                helperText={problems[`variants.${index}.version`]}
                sx={{ flex: 1, minWidth: 0 }}
              >
                {props.versions.map((number) => (
                  <MenuItem key={number} value={number}>
                    {t("versions.number", { number })}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                size="small"
                label={t("experiments.variantPercent", { index: index + 1 })}
                value={row.percent}
                onChange={(event) => setRow(index, { percent: event.target.value.replace(/\D/g, "") })}
                error={Boolean(problems[`variants.${index}.percent`])}
                helperText={problems[`variants.${index}.percent`]}
                slotProps={{ htmlInput: { inputMode: "numeric", dir: "ltr" } }}
                sx={{ width: 110, flexShrink: 0 }}
              />
              <IconButton
                aria-label={t("experiments.removeVariant", { index: index + 1 })}
                disabled={draft.variants.length <= 2}
                onClick={() => setDraft({ ...draft, variants: draft.variants.filter((_, i) => i !== index) })}
              >
                <DeleteOutline />
              </IconButton>
            </Stack>
          ))}
        </Stack>
        <Stack direction="row" spacing={2} sx={{ mt: 1, alignItems: "center", justifyContent: "space-between" }}>
          <Button
            startIcon={<AddOutlined />}
            disabled={draft.variants.length >= MAX_VARIANTS}
            onClick={() => setDraft({ ...draft, variants: [...draft.variants, { version: "", percent: "" }] })}
          >
            {t("experiments.addVariant")}
          </Button>
          <Typography color={total === 100 ? "text.secondary" : "error"} aria-live="polite">
            {t("experiments.total", { total })}
          </Typography>
        </Stack>
        {problems.variants && <FormHelperText error>{problems.variants}</FormHelperText>}
      </Grid>
    </FormDialog>
  );
}
