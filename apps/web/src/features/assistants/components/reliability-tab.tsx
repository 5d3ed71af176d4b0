import Typography from "@mui/material/Typography";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { BACKUP_STAGES, FAULT_WAITS, type FaultWait, waitBoundsSeconds } from "../utils/reliability-form.ts";
import { BackupList } from "./backup-list.tsx";
import type { EditorForm } from "./editor-types.ts";
import { SecondsField } from "./seconds-field.tsx";
import { type FieldList, HALF, type SettingsField, SettingsSection, wordsUnder } from "./settings-fields.tsx";

/** The words of each wait: what the caller is waiting for when it runs out. */
const WAIT_WORDS: Record<FaultWait, string> = {
  first_token_timeout_ms: "firstToken",
  first_audio_timeout_ms: "firstAudio",
  tool_timeout_ms: "tool",
  transcriber_silence_ms: "transcriberSilence",
};

/**
 * What a call does when a provider fails: the backups of each stage, tried in order, and the
 * fault policy (how long each stage may keep the caller waiting, what the assistant says while it
 * recovers, and how a call that cannot go on ends).
 */
export function ReliabilityTab({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const giveUp = useWatch({ control, name: "fault_policy.give_up" });
  const words = wordsUnder(t, "reliability.policy");
  const waits = FAULT_WAITS.map(
    (wait): SettingsField => ({
      kind: "custom",
      key: wait,
      size: HALF,
      node: (
        <SecondsField
          control={control}
          name={`fault_policy.${wait}`}
          {...waitBoundsSeconds(wait)}
          label={t(`reliability.policy.waits.${WAIT_WORDS[wait]}`)}
          helperText={t(`reliability.policy.waits.${WAIT_WORDS[wait]}Help`)}
        />
      ),
    }),
  );
  const recovery: FieldList = [
    {
      kind: "text",
      name: "fault_policy.recovery_message",
      ...words("recoveryMessage", "recoveryMessageHelp"),
      rows: { min: 2 },
    },
    {
      kind: "select",
      name: "fault_policy.give_up",
      ...words("giveUp", "giveUpHelp"),
      size: HALF,
      options: [
        { value: "goodbye", label: t("reliability.policy.giveUpGoodbye") },
        { value: "transfer", label: t("reliability.policy.giveUpTransfer") },
      ],
    },
    giveUp === "transfer" && {
      kind: "text",
      name: "fault_policy.transfer_number",
      ...words("transferNumber", "transferNumberHelp"),
      size: HALF,
      required: true,
    },
    {
      kind: "text",
      name: "fault_policy.goodbye_message",
      ...words(giveUp === "transfer" ? "transferMessage" : "goodbyeMessage", "goodbyeMessageHelp"),
      rows: { min: 2 },
    },
    { kind: "switch", name: "fault_policy.last_resort_voice", ...words("lastResortVoice", "lastResortVoiceHelp") },
  ];
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {t("reliability.intro")}
      </Typography>
      {BACKUP_STAGES.map((stage) => (
        <BackupList key={stage} form={form} stage={stage} />
      ))}
      <SettingsSection
        id="fault-policy-waits"
        title={t("reliability.policy.waitsTitle")}
        control={control}
        fields={waits}
      />
      <SettingsSection
        id="fault-policy-recovery"
        title={t("reliability.policy.recoveryTitle")}
        control={control}
        fields={recovery}
      />
    </>
  );
}
