import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import { AssistantFields } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { numberBounds } from "../../../lib/number-bounds.ts";
import type { EditorControl } from "./editor-types.ts";
import { SettingsFields, THIRD } from "./settings-fields.tsx";

/** The three waits after the caller stops speaking, chosen by how the transcript ends. */
const WAITS = [
  { name: "end_of_turn_punctuation_ms", key: "punctuation" },
  { name: "end_of_turn_no_punctuation_ms", key: "noPunctuation" },
  { name: "end_of_turn_number_ms", key: "number" },
] as const;

/**
 * When the caller's turn is over (transcription endpointing): a short wait after a finished
 * sentence, a longer one mid-phrase or on a number being read out, or the transcriber's own
 * end-of-turn signal. Limits are the contract's, so the inputs accept exactly what the API does.
 */
export function EndOfTurnFields({ control }: { control: EditorControl }) {
  const { t } = useTranslation("assistants");
  return (
    <Grid container spacing={2} component="section" aria-labelledby="end-of-turn-heading">
      <Grid size={12}>
        <Typography id="end-of-turn-heading" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t("model.endOfTurn.title")}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t("model.endOfTurn.intro")}
        </Typography>
      </Grid>
      <SettingsFields
        control={control}
        fields={[
          ...WAITS.map(({ name, key }) => ({
            kind: "number" as const,
            name,
            label: t(`model.endOfTurn.${key}`),
            help: t(`model.endOfTurn.${key}Help`),
            size: THIRD,
            input: { ...numberBounds(AssistantFields.shape[name]), step: 50 },
          })),
          {
            kind: "switch",
            name: "end_of_turn_vendor_events",
            label: t("model.endOfTurn.vendorEvents"),
            help: t("model.endOfTurn.vendorEventsHelp"),
          },
        ]}
      />
    </Grid>
  );
}
