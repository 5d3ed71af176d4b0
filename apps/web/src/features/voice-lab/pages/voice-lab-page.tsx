import Stack from "@mui/material/Stack";
import { ASSISTANT_DEFAULTS, type VoiceClone } from "@parley/contract";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../../components/page-header.tsx";
import { ClonesSection } from "../components/clones-section.tsx";
import { SynthesisPanel } from "../components/synthesis-panel.tsx";
import { initialSettings, withVoice } from "../utils/synthesis-settings.ts";

/** Voice lab: listen to any provider's voices with your own text, and manage the workspace's voice clones. */
export default function VoiceLabPage() {
  const { t } = useTranslation(["voice-lab", "translation"], { nsMode: "fallback" });
  const [settings, setSettings] = useState(() => initialSettings(ASSISTANT_DEFAULTS.tts_provider));
  const panel = useRef<HTMLDivElement>(null);

  const tryClone = (clone: VoiceClone) => {
    setSettings((s) => withVoice(s, clone.service_name, clone.service_voice_id));
    panel.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  };

  return (
    <>
      <PageHeader title={t("nav.voiceLab")} subtitle={t("subtitle")} />
      <Stack spacing={3}>
        <div ref={panel}>
          <SynthesisPanel settings={settings} onChange={setSettings} />
        </div>
        <ClonesSection onTry={tryClone} />
      </Stack>
    </>
  );
}
