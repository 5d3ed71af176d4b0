import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Typography from "@mui/material/Typography";
import { PII_REDACTION_MODES, type PiiRedactionMode, type PrivacySettings } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { SectionCard } from "../../../components/section-card.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { useSavePrivacySettings } from "../api/privacy-api.ts";

/** Whether calls mask personal data in what they store, and whether the assistant's model reads it. */
export function RedactionCard({ settings }: { settings: PrivacySettings }) {
  const { t } = useTranslation("privacy");
  const save = useSavePrivacySettings();
  const notice = useNotice();
  const [mode, setMode] = useState<PiiRedactionMode>(settings.pii_redaction);
  const changed = mode !== settings.pii_redaction;
  // Only this card's field changes: the retention card saves its own.
  const submit = () => void notice.run(save.mutateAsync({ ...settings, pii_redaction: mode }), t("redaction.saved"));

  return (
    <SectionCard title={t("redaction.title")}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("redaction.hint")}
      </Typography>
      <RadioGroup
        aria-label={t("redaction.title")}
        value={mode}
        onChange={(e) => setMode(e.target.value as PiiRedactionMode)}
        sx={{ mb: 2 }}
      >
        {PII_REDACTION_MODES.map((m) => (
          <FormControlLabel
            key={m}
            value={m}
            control={<Radio />}
            sx={{ alignItems: "flex-start", mb: 1, mx: 0 }}
            label={
              <Box sx={{ pt: 1, minWidth: 0 }}>
                <Typography variant="body1">{t(`redaction.modes.${m}.label`)}</Typography>
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
                  {t(`redaction.modes.${m}.hint`)}
                </Typography>
              </Box>
            }
          />
        ))}
      </RadioGroup>
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
        <Button variant="contained" disabled={!changed || save.isPending} onClick={submit}>
          {t("redaction.save")}
        </Button>
        <Button disabled={!changed || save.isPending} onClick={() => setMode(settings.pii_redaction)}>
          {t("retention.reset")}
        </Button>
      </Box>
    </SectionCard>
  );
}
