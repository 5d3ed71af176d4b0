import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import CircularProgress from "@mui/material/CircularProgress";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import type { CostPerMinuteBody } from "@parley/contract";
import { useMemo, useState } from "react";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useDebouncedValue } from "../../../lib/use-debounced-value.ts";
import { useCostPerMinute } from "../api/cost-api.ts";
import type { EditorControl } from "./editor-types.ts";

const STAGES = ["stt", "llm", "tts", "telephony", "platform"] as const;

/** The estimated cost of a minute of conversation, refreshed shortly after the providers change. */
export function CostPanel({ control }: { control: EditorControl }) {
  const { t, i18n } = useTranslation("assistants");
  const [telephony, setTelephony] = useState(false);
  const [llm, llmModel, stt, sttConfig, tts, ttsModel, prompt] = useWatch({
    control,
    name: [
      "llm_provider",
      "llm_provider_config.model",
      "stt_provider",
      "stt_provider_config",
      "tts_provider",
      "tts_provider_config.model",
      "system_prompt",
    ],
  });
  const sttModel = typeof sttConfig?.model === "string" ? sttConfig.model : undefined;
  const body = useMemo<CostPerMinuteBody>(
    () => ({
      llm_provider: llm,
      llm_provider_config: { model: llmModel || undefined },
      stt_provider: stt,
      stt_provider_config: { model: sttModel || undefined },
      tts_provider: tts,
      tts_provider_config: { model: ttsModel || undefined },
      system_prompt: prompt,
      telephony,
    }),
    [llm, llmModel, stt, sttModel, tts, ttsModel, prompt, telephony],
  );
  const debounced = useDebouncedValue(body, 600);
  const cost = useCostPerMinute(debounced);
  const money = (value: number) =>
    new Intl.NumberFormat(i18n.language, {
      style: "currency",
      currency: cost.data?.currency ?? "USD",
      minimumFractionDigits: 2,
      maximumFractionDigits: 4,
    }).format(value);

  return (
    <Card variant="outlined" component="aside" aria-labelledby="cost-heading">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", justifyContent: "space-between" }}>
          <Typography id="cost-heading" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t("cost.title")}
          </Typography>
          {cost.isFetching && <CircularProgress size={16} aria-label={t("cost.estimating")} />}
        </Stack>
        {cost.isError && !cost.data && <Typography color="text.secondary">{t("cost.unavailable")}</Typography>}
        {cost.data && (
          <>
            <Typography variant="h5" component="p" sx={{ my: 1 }} aria-live="polite">
              {t("cost.perMinute", { value: money(cost.data.total) })}
            </Typography>
            <Stack component="dl" spacing={0.5} sx={{ m: 0 }}>
              {STAGES.map((stage) => (
                <Stack key={stage} direction="row" sx={{ justifyContent: "space-between" }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {t(`cost.${stage}`)}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                    {money(cost.data.breakdown[stage])}
                  </Typography>
                </Stack>
              ))}
            </Stack>
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
              {t("cost.assumptions", {
                input: cost.data.assumptions.llm_input_tokens_per_minute,
                output: cost.data.assumptions.llm_output_tokens_per_minute,
              })}
            </Typography>
          </>
        )}
        <FormControlLabel
          sx={{ mt: 1 }}
          control={<Switch size="small" checked={telephony} onChange={(_, checked) => setTelephony(checked)} />}
          label={<Typography variant="body2">{t("cost.phoneCall")}</Typography>}
        />
      </CardContent>
    </Card>
  );
}
