import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { PRICE_TABLE, REALTIME_COST_ASSUMPTIONS, REALTIME_DESCRIPTORS, realtimeCostPerMinute } from "@parley/contract";
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { EditorControl } from "./editor-types.ts";

/**
 * The estimated cost of a minute on the assistant's speech-to-speech model, worked out here from
 * the vendor's list prices in its descriptor (no request: the prices ship with the app).
 */
export function RealtimeCostPanel({ control }: { control: EditorControl }) {
  const { t, i18n } = useTranslation("assistants");
  const [telephony, setTelephony] = useState(false);
  const [provider, model, prompt] = useWatch({
    control,
    name: ["realtime.provider", "realtime.model", "system_prompt"],
  });
  const estimate = realtimeCostPerMinute(
    { provider: provider ?? REALTIME_DESCRIPTORS[0].realtime.id, model: model ?? "" },
    prompt ?? undefined,
  );
  const phone = telephony ? PRICE_TABLE.telephonyPerMinute : 0;
  const rows = [
    { key: "input", value: estimate.input },
    { key: "output", value: estimate.output },
    { key: "telephony", value: phone },
  ] as const;
  const money = (value: number) =>
    new Intl.NumberFormat(i18n.language, {
      style: "currency",
      currency: "USD",
      minimumFractionDigits: 2,
      maximumFractionDigits: 4,
    }).format(value);
  const share = (value: number) => new Intl.NumberFormat(i18n.language, { style: "percent" }).format(value);

  return (
    <Card variant="outlined" component="aside" aria-labelledby="realtime-cost-heading">
      <CardContent>
        <Typography id="realtime-cost-heading" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t("cost.title")}
        </Typography>
        <Typography variant="h5" component="p" sx={{ my: 1 }} aria-live="polite">
          {t("cost.perMinute", { value: money(estimate.total + phone) })}
        </Typography>
        <Stack component="dl" spacing={0.5} sx={{ m: 0 }}>
          {rows.map((row) => (
            <Stack key={row.key} direction="row" spacing={1} sx={{ justifyContent: "space-between" }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {t(`realtime.cost.${row.key}`)}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {money(row.value)}
              </Typography>
            </Stack>
          ))}
        </Stack>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          {t("realtime.cost.assumptions", {
            caller: share(REALTIME_COST_ASSUMPTIONS.callerTalkShare),
            assistant: share(REALTIME_COST_ASSUMPTIONS.assistantTalkShare),
            turns: REALTIME_COST_ASSUMPTIONS.turnsPerMinute,
          })}
        </Typography>
        <FormControlLabel
          sx={{ mt: 1 }}
          control={<Switch size="small" checked={telephony} onChange={(_, checked) => setTelephony(checked)} />}
          label={<Typography variant="body2">{t("cost.phoneCall")}</Typography>}
        />
      </CardContent>
    </Card>
  );
}
