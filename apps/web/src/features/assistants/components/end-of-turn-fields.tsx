import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import { AssistantFields } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { numberBounds } from "../../../lib/number-bounds.ts";
import type { EditorControl } from "./editor-types.ts";
import { FormNumberField, FormSwitch } from "./form-controls.tsx";

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
      {WAITS.map(({ name, key }) => (
        <Grid key={name} size={{ xs: 12, sm: 4 }}>
          <FormNumberField
            control={control}
            name={name}
            label={t(`model.endOfTurn.${key}`)}
            helperText={t(`model.endOfTurn.${key}Help`)}
            fullWidth
            slotProps={{ htmlInput: { ...numberBounds(AssistantFields.shape[name]), step: 50 } }}
          />
        </Grid>
      ))}
      <Grid size={12}>
        <FormSwitch
          control={control}
          name="end_of_turn_vendor_events"
          label={t("model.endOfTurn.vendorEvents")}
          helperText={t("model.endOfTurn.vendorEventsHelp")}
        />
      </Grid>
    </Grid>
  );
}
