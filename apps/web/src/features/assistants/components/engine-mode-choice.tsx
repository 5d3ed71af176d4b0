import FormHelperText from "@mui/material/FormHelperText";
import Stack from "@mui/material/Stack";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { EngineMode } from "@parley/contract";
import { useId } from "react";
import { useController } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { EditorControl } from "./editor-types.ts";

/**
 * Pipeline or Realtime (issue 32): how the assistant runs its calls. A segmented control: each
 * choice is a button reached with Tab and chosen with Enter or Space; the chosen one is pressed.
 */
export function EngineModeChoice({ control }: { control: EditorControl }) {
  const { t } = useTranslation("assistants");
  const labelId = useId();
  const helpId = useId();
  const { field } = useController({ control, name: "engine_mode" });
  return (
    <Stack spacing={1}>
      <Typography id={labelId} variant="subtitle2" component="h3">
        {t("realtime.mode")}
      </Typography>
      <ToggleButtonGroup
        exclusive
        color="primary"
        size="small"
        value={field.value ?? "pipeline"}
        // A pressed button clicked again gives null: the mode stays as it is.
        onChange={(_, next: EngineMode | null) => next && field.onChange(next)}
        aria-labelledby={labelId}
        aria-describedby={helpId}
        sx={{ flexWrap: "wrap" }}
      >
        {EngineMode.options.map((mode) => (
          <ToggleButton key={mode} value={mode} sx={{ px: 2 }}>
            {t(`realtime.modes.${mode}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <FormHelperText id={helpId} sx={{ mx: 0 }}>
        {t(field.value === "realtime" ? "realtime.modeHelpRealtime" : "realtime.modeHelpPipeline")}
      </FormHelperText>
    </Stack>
  );
}
