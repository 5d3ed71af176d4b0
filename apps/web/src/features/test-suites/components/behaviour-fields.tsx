import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Grid from "@mui/material/Grid";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { Controller, useFieldArray, useFormContext } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { CaseForm } from "../forms/case-form.ts";
import { CaseField } from "./case-field.tsx";

/** What the caller does besides talking in turn: barge in, talk over, pause, press keys, stay silent. */
export function BehaviourFields() {
  const { t } = useTranslation("test-suites");
  const { control } = useFormContext<CaseForm>();
  const presses = useFieldArray({ control, name: "caller.behaviours.dtmf" });
  return (
    <>
      <Grid size={{ xs: 12, sm: 6 }}>
        <Controller
          control={control}
          name="caller.behaviours.interrupts_greeting"
          render={({ field }) => (
            <FormControlLabel
              control={<Switch checked={field.value} onChange={(_e, on) => field.onChange(on)} />}
              label={t("behaviours.interruptsGreeting")}
            />
          )}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <CaseField
          name="caller.behaviours.interrupt_after_ms"
          label={t("behaviours.interruptAfter")}
          helperText={t("behaviours.interruptAfterHint")}
          numeric="numeric"
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <CaseField
          name="caller.behaviours.speaks_over_turns"
          label={t("behaviours.speaksOver")}
          helperText={t("behaviours.turnsHint")}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <CaseField
          name="caller.behaviours.silent_turns"
          label={t("behaviours.silentTurns")}
          helperText={t("behaviours.turnsHint")}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <CaseField
          name="caller.behaviours.pause_mid_sentence_ms"
          label={t("behaviours.pause")}
          helperText={t("behaviours.pauseHint")}
          numeric="numeric"
        />
      </Grid>
      <Grid size={12}>
        <Stack spacing={1} role="group" aria-label={t("behaviours.dtmf")}>
          <Typography variant="subtitle2" component="p">
            {t("behaviours.dtmf")}
          </Typography>
          {presses.fields.map((press, index) => (
            <Stack key={press.id} direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
              <CaseField
                name={`caller.behaviours.dtmf.${index}.turn`}
                label={t("behaviours.dtmfTurn", { n: index + 1 })}
                numeric="numeric"
                sx={{ maxWidth: 120 }}
              />
              <CaseField
                name={`caller.behaviours.dtmf.${index}.digits`}
                label={t("behaviours.dtmfDigits", { n: index + 1 })}
                slotProps={{ htmlInput: { dir: "ltr" } }}
              />
              <IconButton
                aria-label={t("behaviours.removeDtmf", { n: index + 1 })}
                onClick={() => presses.remove(index)}
              >
                <DeleteOutline />
              </IconButton>
            </Stack>
          ))}
          <div>
            <Button
              size="small"
              startIcon={<AddIcon />}
              disabled={presses.fields.length >= 10}
              onClick={() => presses.append({ turn: "1", digits: "" })}
            >
              {t("behaviours.addDtmf")}
            </Button>
          </div>
        </Stack>
      </Grid>
    </>
  );
}
