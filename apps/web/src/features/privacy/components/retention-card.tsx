import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type PrivacySettings, RETENTION_KINDS, type RetentionKind } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { SectionCard } from "../../../components/section-card.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { useSavePrivacySettings } from "../api/privacy-api.ts";

/** The choices offered; a number of days set through the API shows as its own choice. */
const PRESETS = [1, 7, 30, 90, 180, 365, 730];
const KEEP = "keep";

const choicesFor = (days: number | null) =>
  days === null || PRESETS.includes(days) ? PRESETS : [...PRESETS, days].sort((a, b) => a - b);

/** How long each kind of data is kept, and the zero-retention switch (asked for before it goes on). */
export function RetentionCard({ settings }: { settings: PrivacySettings }) {
  const { t } = useTranslation("privacy");
  const save = useSavePrivacySettings();
  const notice = useNotice();
  const [draft, setDraft] = useState<PrivacySettings>(settings);
  const [confirming, setConfirming] = useState(false);
  const changed = JSON.stringify(draft) !== JSON.stringify(settings);

  const setDays = (kind: RetentionKind, value: string) =>
    setDraft((d) => ({ ...d, retention: { ...d.retention, [kind]: value === KEEP ? null : Number(value) } }));
  const submit = () => void notice.run(save.mutateAsync(draft), t("retention.saved"));

  return (
    <SectionCard title={t("retention.title")}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("retention.hint")}
      </Typography>
      <Box
        sx={{
          display: "grid",
          gap: 2,
          gridTemplateColumns: {
            xs: "minmax(0, 1fr)",
            sm: "repeat(2, minmax(0, 1fr))",
            md: "repeat(3, minmax(0, 1fr))",
          },
          mb: 2,
        }}
      >
        {RETENTION_KINDS.map((kind) => {
          const days = draft.retention[kind];
          return (
            <TextField
              key={kind}
              select
              size="small"
              label={t(`kinds.${kind}`)}
              value={days === null ? KEEP : String(days)}
              onChange={(e) => setDays(kind, e.target.value)}
              disabled={draft.zero_retention && kind !== "document_files"}
              helperText={draft.zero_retention && kind !== "document_files" ? t("retention.zeroApplies") : " "}
            >
              <MenuItem value={KEEP}>{t("retention.keep")}</MenuItem>
              {choicesFor(days).map((n) => (
                <MenuItem key={n} value={String(n)}>
                  {t("retention.days", { count: n })}
                </MenuItem>
              ))}
            </TextField>
          );
        })}
      </Box>
      <FormControlLabel
        control={
          <Switch
            checked={draft.zero_retention}
            onChange={(e) =>
              e.target.checked ? setConfirming(true) : setDraft((d) => ({ ...d, zero_retention: false }))
            }
          />
        }
        label={t("zero.label")}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("zero.hint")}
      </Typography>
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
        <Button variant="contained" disabled={!changed || save.isPending} onClick={submit}>
          {t("retention.save")}
        </Button>
        <Button disabled={!changed || save.isPending} onClick={() => setDraft(settings)}>
          {t("retention.reset")}
        </Button>
      </Box>
      <ConfirmDialog
        open={confirming}
        title={t("zero.confirmTitle")}
        text={t("zero.confirmText")}
        confirmLabel={t("zero.confirm")}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          setDraft((d) => ({ ...d, zero_retention: true }));
        }}
      />
    </SectionCard>
  );
}
