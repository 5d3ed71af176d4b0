import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import { DEFAULT_CALLER_VOICE, type TestCase } from "@parley/contract";
import { useId } from "react";
import { Controller, type Path, useFormContext, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { type CaseForm, DEFAULT_VOICE, KEPT_VOICE, OFFLINE_VOICES } from "../forms/case-form.ts";
import { CaseField } from "./case-field.tsx";
import { ScriptLinesField } from "./script-lines-field.tsx";

/** Radios bound to the form, in a labelled group. */
function Choice(props: { name: Path<CaseForm>; label: string; options: { value: string; label: string }[] }) {
  const { control } = useFormContext<CaseForm>();
  const labelId = useId();
  return (
    <FormControl>
      <FormLabel id={labelId}>{props.label}</FormLabel>
      <Controller
        control={control}
        name={props.name}
        render={({ field }) => (
          <RadioGroup row aria-labelledby={labelId} value={field.value} onChange={(_e, value) => field.onChange(value)}>
            {props.options.map((option) => (
              <FormControlLabel key={option.value} value={option.value} control={<Radio />} label={option.label} />
            ))}
          </RadioGroup>
        )}
      />
    </FormControl>
  );
}

const defaultVoiceName = OFFLINE_VOICES.find((v) => v.id === DEFAULT_CALLER_VOICE.config.voice)?.name ?? "";

/** Who calls: persona or script, the voice, how many turns, and the line the voice travels on. */
export function CallerFields({ original }: { original: TestCase | null }) {
  const { t } = useTranslation("test-suites");
  const { control } = useFormContext<CaseForm>();
  const [mode, profile] = useWatch({ control, name: ["caller.mode", "caller.profile"] });
  const kept = original?.caller.voice;
  return (
    <>
      <Grid size={12}>
        <Choice
          name="caller.mode"
          label={t("caller.mode")}
          options={[
            { value: "script", label: t("caller.modes.script") },
            { value: "persona", label: t("caller.modes.persona") },
          ]}
        />
      </Grid>
      <Grid size={12}>
        {mode === "persona" ? (
          <CaseField
            name="caller.persona"
            label={t("caller.persona")}
            helperText={t("caller.personaHint")}
            multiline
            minRows={3}
          />
        ) : (
          <ScriptLinesField />
        )}
      </Grid>
      <Grid size={{ xs: 12, sm: mode === "persona" ? 8 : 12 }}>
        <CaseField name="caller.voice" label={t("caller.voice")} select helperText={t("caller.voiceHint")}>
          <MenuItem value={DEFAULT_VOICE}>{t("caller.defaultVoice", { name: defaultVoiceName })}</MenuItem>
          {OFFLINE_VOICES.map((voice) => (
            <MenuItem key={voice.id} value={voice.id}>
              {t("caller.offlineVoice", { name: voice.name })}
            </MenuItem>
          ))}
          {kept && (
            <MenuItem value={KEPT_VOICE}>
              {t("caller.keptVoice", { provider: kept.provider, voice: kept.config.voice })}
            </MenuItem>
          )}
        </CaseField>
      </Grid>
      {/* A script says every line; only a persona's conversation needs a bound. */}
      {mode === "persona" && (
        <Grid size={{ xs: 12, sm: 4 }}>
          <CaseField name="caller.max_turns" label={t("caller.maxTurns")} numeric="numeric" />
        </Grid>
      )}
      <Grid size={12}>
        <Choice
          name="caller.profile"
          label={t("caller.profile")}
          options={[
            { value: "browser", label: t("caller.profiles.browser") },
            { value: "phone", label: t("caller.profiles.phone") },
          ]}
        />
      </Grid>
      {profile === "phone" && (
        <>
          <Grid size={{ xs: 12, sm: 6 }}>
            <CaseField
              name="caller.phone_line.noise_dbfs"
              label={t("caller.noise")}
              helperText={t("caller.noiseHint")}
              numeric="decimal"
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <CaseField
              name="caller.phone_line.packet_loss_percent"
              label={t("caller.loss")}
              helperText={t("caller.lossHint")}
              numeric="decimal"
            />
          </Grid>
        </>
      )}
    </>
  );
}
