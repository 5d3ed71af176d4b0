import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { AssistantFields, BACKGROUND_AUDIO } from "@parley/contract";
import { Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { numberBounds, numberRange } from "../../../lib/number-bounds.ts";
import type { EditorControl, EditorForm } from "./editor-types.ts";
import { type FieldList, HALF, percent, SettingsSection, wordsUnder } from "./settings-fields.tsx";

/** Each input's limits are the contract's, so the editor accepts exactly what the API does. */
const FIELDS = AssistantFields.shape;

/** Ending calls, voicemail, limits, silence, background audio and compliance. */
export function MoreSettingsTab({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  // The settings that show, hide or lock others.
  const [voicemail, handler, background, hipaa] = useWatch({
    control,
    name: ["voicemail_detection", "voicemail_detection_handler", "background_audio_id", "hippa_compliant"],
  });
  const words = wordsUnder(t, "more");
  const endCall: FieldList = [
    { kind: "switch", name: "end_call_function", ...words("endCall.function", "endCall.functionHelp") },
    { kind: "text", name: "end_call_goodbye_message", ...words("endCall.goodbye") },
    { kind: "chips", name: "end_call_phrases", ...words("endCall.phrases", "endCall.phrasesHelp") },
  ];
  const voicemailFields: FieldList = [
    { kind: "switch", name: "voicemail_detection", ...words("voicemail.detection", "voicemail.help") },
    {
      kind: "select",
      name: "voicemail_detection_handler",
      ...words("voicemail.handler"),
      disabled: !voicemail,
      size: HALF,
      options: [
        { value: "hangup", label: t("more.voicemail.hangup") },
        { value: "leave_message", label: t("more.voicemail.leaveMessage") },
      ],
    },
    handler === "leave_message" && {
      kind: "text",
      name: "voicemail_message",
      ...words("voicemail.message"),
      disabled: !voicemail,
      rows: { min: 2 },
    },
  ];
  const duration: FieldList = [
    {
      kind: "number",
      name: "max_call_duration",
      ...words("duration.max", "duration.maxHelp"),
      size: HALF,
      input: numberBounds(FIELDS.max_call_duration),
    },
    {
      kind: "slider",
      name: "max_call_duration_warning_percentage",
      ...words("duration.warningAt"),
      size: HALF,
      ...numberRange(FIELDS.max_call_duration_warning_percentage),
      step: 0.01,
      format: percent,
    },
    { kind: "text", name: "max_call_duration_warning_message", ...words("duration.warningMessage") },
  ];
  const silence: FieldList = [
    {
      kind: "number",
      name: "timeout_seconds",
      ...words("silence.seconds"),
      size: HALF,
      input: numberBounds(FIELDS.timeout_seconds),
    },
    {
      kind: "number",
      name: "timeout_max_attempts",
      ...words("silence.attempts", "silence.attemptsHelp"),
      size: HALF,
      input: numberBounds(FIELDS.timeout_max_attempts),
    },
    { kind: "text", name: "timeout_message", ...words("silence.message") },
  ];
  const backgroundFields: FieldList = [
    { kind: "custom", key: "background_audio_id", size: HALF, node: <BackgroundSoundSelect control={control} /> },
    {
      kind: "slider",
      name: "background_audio_volume",
      ...words("background.volume"),
      size: HALF,
      ...numberRange(FIELDS.background_audio_volume),
      step: 0.05,
      disabled: !background,
      format: percent,
    },
  ];
  const compliance: FieldList = [
    {
      kind: "switch",
      name: "hippa_compliant",
      ...words("compliance.hipaa", "compliance.hipaaHelp"),
      onChanged: (checked) => {
        // Spec §4: HIPAA compliance forces audio recording off.
        if (checked) form.setValue("audio_recording", false, { shouldDirty: true });
      },
    },
    { kind: "switch", name: "pci_compliant", ...words("compliance.pci", "compliance.pciHelp") },
    {
      kind: "switch",
      name: "audio_recording",
      ...words("compliance.recording", hipaa ? "compliance.recordingOffForHipaa" : "compliance.recordingHelp"),
      disabled: Boolean(hipaa),
    },
  ];
  // Each section: its heading's id, its words under "more." in the locale, its fields.
  const sections: [id: string, words: string, fields: FieldList][] = [
    ["end-call-heading", "endCall", endCall],
    ["voicemail-heading", "voicemail", voicemailFields],
    ["duration-heading", "duration", duration],
    ["silence-heading", "silence", silence],
    ["background-heading", "background", backgroundFields],
    ["compliance-heading", "compliance", compliance],
  ];
  return sections.map(([id, key, fields]) => (
    <SettingsSection key={id} id={id} title={t(`more.${key}.title`)} control={control} fields={fields} />
  ));
}

/** "None" stands for no sound (null in the assistant), which a select cannot hold as a value. */
function BackgroundSoundSelect({ control }: { control: EditorControl }) {
  const { t } = useTranslation("assistants");
  return (
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
  );
}
