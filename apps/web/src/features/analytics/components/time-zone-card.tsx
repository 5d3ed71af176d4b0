import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { SectionCard } from "../../../components/section-card.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { useSaveSettings } from "../api/analytics-api.ts";

/** Every zone the browser knows; the server checks the one chosen against its database's list. */
const ZONES: string[] = (() => {
  const withSupported = Intl as typeof Intl & { supportedValuesOf?: (key: "timeZone") => string[] };
  const zones = withSupported.supportedValuesOf?.("timeZone") ?? [];
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
})();

/** The zone the workspace's days, weeks and months are read in. */
export function TimeZoneCard({ zone }: { zone: string }) {
  const { t } = useTranslation("analytics");
  const save = useSaveSettings();
  const notice = useNotice();
  const [value, setValue] = useState<string>(zone);
  return (
    <SectionCard title={t("zone.title")}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("zone.hint")}
      </Typography>
      <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap", alignItems: "center" }}>
        <Autocomplete
          options={ZONES}
          value={value}
          disableClearable
          onChange={(_e, next) => setValue(next)}
          sx={{ flex: "1 1 220px", maxWidth: 360 }}
          renderInput={(params) => <TextField {...params} label={t("zone.label")} size="small" />}
        />
        <Button
          variant="contained"
          disabled={value === zone || save.isPending}
          onClick={() => void notice.run(save.mutateAsync({ time_zone: value }), t("zone.saved"))}
        >
          {t("zone.save")}
        </Button>
      </Box>
    </SectionCard>
  );
}
