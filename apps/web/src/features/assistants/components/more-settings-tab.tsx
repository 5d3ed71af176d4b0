import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { AssistantFields, BACKGROUND_AUDIO } from "@parley/contract";
import type { ReactNode } from "react";
import { Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { numberBounds, numberRange } from "../../../lib/number-bounds.ts";
import type { EditorForm } from "./editor-types.ts";
import { FormChips, FormNumberField, FormSlider, FormSwitch } from "./form-controls.tsx";

/** Each input's limits are the contract's, so the editor accepts exactly what the API does. */
const FIELDS = AssistantFields.shape;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Grid container spacing={2} component="section" aria-labelledby={id} sx={{ mb: 3 }}>
      <Grid size={12}>
        <Typography id={id} variant="h6" component="h2">
          {title}
        </Typography>
      </Grid>
      {children}
    </Grid>
  );
}

/** Ending calls, voicemail, limits, silence, background audio and compliance. */
export function MoreSettingsTab({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const voicemail = useWatch({ control, name: "voicemail_detection" });
  const handler = useWatch({ control, name: "voicemail_detection_handler" });
  const background = useWatch({ control, name: "background_audio_id" });
  const half = { xs: 12, sm: 6 };
  return (
    <>
      <Section id="end-call-heading" title={t("more.endCall.title")}>
        <Grid size={12}>
          <FormSwitch
            control={control}
            name="end_call_function"
            label={t("more.endCall.function")}
            helperText={t("more.endCall.functionHelp")}
          />
        </Grid>
        <Grid size={12}>
          <FormTextField
            control={control}
            name="end_call_goodbye_message"
            label={t("more.endCall.goodbye")}
            fullWidth
          />
        </Grid>
        <Grid size={12}>
          <FormChips
            control={control}
            name="end_call_phrases"
            label={t("more.endCall.phrases")}
            helperText={t("more.endCall.phrasesHelp")}
          />
        </Grid>
      </Section>
      <Section id="voicemail-heading" title={t("more.voicemail.title")}>
        <Grid size={12}>
          <FormSwitch
            control={control}
            name="voicemail_detection"
            label={t("more.voicemail.detection")}
            helperText={t("more.voicemail.help")}
          />
        </Grid>
        <Grid size={half}>
          <FormTextField
            control={control}
            name="voicemail_detection_handler"
            select
            label={t("more.voicemail.handler")}
            disabled={!voicemail}
            fullWidth
          >
            <MenuItem value="hangup">{t("more.voicemail.hangup")}</MenuItem>
            <MenuItem value="leave_message">{t("more.voicemail.leaveMessage")}</MenuItem>
          </FormTextField>
        </Grid>
        {handler === "leave_message" && (
          <Grid size={12}>
            <FormTextField
              control={control}
              name="voicemail_message"
              label={t("more.voicemail.message")}
              disabled={!voicemail}
              multiline
              minRows={2}
              fullWidth
            />
          </Grid>
        )}
      </Section>
      <Section id="duration-heading" title={t("more.duration.title")}>
        <Grid size={half}>
          <FormNumberField
            control={control}
            name="max_call_duration"
            label={t("more.duration.max")}
            helperText={t("more.duration.maxHelp")}
            fullWidth
            slotProps={{ htmlInput: numberBounds(FIELDS.max_call_duration) }}
          />
        </Grid>
        <Grid size={half}>
          <FormSlider
            control={control}
            name="max_call_duration_warning_percentage"
            label={t("more.duration.warningAt")}
            {...numberRange(FIELDS.max_call_duration_warning_percentage)}
            step={0.01}
            format={(v) => `${Math.round(v * 100)}%`}
          />
        </Grid>
        <Grid size={12}>
          <FormTextField
            control={control}
            name="max_call_duration_warning_message"
            label={t("more.duration.warningMessage")}
            fullWidth
          />
        </Grid>
      </Section>
      <Section id="silence-heading" title={t("more.silence.title")}>
        <Grid size={half}>
          <FormNumberField
            control={control}
            name="timeout_seconds"
            label={t("more.silence.seconds")}
            fullWidth
            slotProps={{ htmlInput: numberBounds(FIELDS.timeout_seconds) }}
          />
        </Grid>
        <Grid size={half}>
          <FormNumberField
            control={control}
            name="timeout_max_attempts"
            label={t("more.silence.attempts")}
            helperText={t("more.silence.attemptsHelp")}
            fullWidth
            slotProps={{ htmlInput: numberBounds(FIELDS.timeout_max_attempts) }}
          />
        </Grid>
        <Grid size={12}>
          <FormTextField control={control} name="timeout_message" label={t("more.silence.message")} fullWidth />
        </Grid>
      </Section>
      <Section id="background-heading" title={t("more.background.title")}>
        <Grid size={half}>
          <Controller
            control={control}
            name="background_audio_id"
            render={({ field }) => (
              <TextField
                select
                fullWidth
                label={t("more.background.sound")}
                name={field.name}
                inputRef={field.ref}
                value={field.value ?? "none"}
                onChange={(e) => field.onChange(e.target.value === "none" ? null : e.target.value)}
              >
                <MenuItem value="none">{t("more.background.none")}</MenuItem>
                {BACKGROUND_AUDIO.map((audio) => (
                  <MenuItem key={audio.id} value={audio.id}>
                    {t(`more.background.${audio.id}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Grid>
        <Grid size={half}>
          <FormSlider
            control={control}
            name="background_audio_volume"
            label={t("more.background.volume")}
            {...numberRange(FIELDS.background_audio_volume)}
            step={0.05}
            disabled={!background}
            format={(v) => `${Math.round(v * 100)}%`}
          />
        </Grid>
      </Section>
      <ComplianceSection form={form} />
    </>
  );
}

function ComplianceSection({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const hipaa = useWatch({ control, name: "hippa_compliant" });
  return (
    <Section id="compliance-heading" title={t("more.compliance.title")}>
      <Grid size={12}>
        <FormSwitch
          control={control}
          name="hippa_compliant"
          label={t("more.compliance.hipaa")}
          helperText={t("more.compliance.hipaaHelp")}
          onChanged={(checked) => {
            // Spec §4: HIPAA compliance forces audio recording off.
            if (checked) form.setValue("audio_recording", false, { shouldDirty: true });
          }}
        />
      </Grid>
      <Grid size={12}>
        <FormSwitch
          control={control}
          name="pci_compliant"
          label={t("more.compliance.pci")}
          helperText={t("more.compliance.pciHelp")}
        />
      </Grid>
      <Grid size={12}>
        <FormSwitch
          control={control}
          name="audio_recording"
          label={t("more.compliance.recording")}
          disabled={Boolean(hipaa)}
          helperText={hipaa ? t("more.compliance.recordingOffForHipaa") : t("more.compliance.recordingHelp")}
        />
      </Grid>
    </Section>
  );
}
