import AddIcon from "@mui/icons-material/Add";
import ArrowDownwardIcon from "@mui/icons-material/ArrowDownward";
import ArrowUpwardIcon from "@mui/icons-material/ArrowUpward";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { MAX_FALLBACK_PROVIDERS } from "@parley/contract";
import { useFieldArray } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { type BackupStage, newBackup } from "../utils/reliability-form.ts";
import { backupPaths, type StagePaths } from "../utils/stage-paths.ts";
import type { EditorForm } from "./editor-types.ts";
import { useLlmProviderFields } from "./llm-provider-fields.tsx";
import { SettingsFields } from "./settings-fields.tsx";
import { TranscriberTab } from "./transcriber-tab.tsx";
import { VoiceTab } from "./voice-tab.tsx";

function LlmBackupFields({ form, at }: { form: EditorForm; at: StagePaths }) {
  const fields = useLlmProviderFields(form, at);
  return (
    <Grid container spacing={2}>
      <SettingsFields control={form.control} fields={fields} />
    </Grid>
  );
}

/** A backup's settings: the very pickers the stage's own tab uses, bound to the backup's place in the form. */
function BackupFields({ form, stage, at }: { form: EditorForm; stage: BackupStage; at: StagePaths }) {
  switch (stage) {
    case "llm":
      return <LlmBackupFields form={form} at={at} />;
    case "stt":
      return <TranscriberTab form={form} at={at} />;
    case "tts":
      return <VoiceTab form={form} at={at} />;
  }
}

/**
 * A stage's backups in the order they are tried: add (up to the contract's maximum), remove and
 * move each one. A new backup starts as the stage's own provider with its defaults, to change from.
 */
export function BackupList({ form, stage }: { form: EditorForm; stage: BackupStage }) {
  const { t } = useTranslation("assistants");
  const { fields, append, remove, move } = useFieldArray({
    control: form.control,
    name: `fallback_providers.${stage}`,
  });
  const full = fields.length >= MAX_FALLBACK_PROVIDERS;
  const headingId = `backups-${stage}`;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 4 }}>
      <Typography id={headingId} variant="h6" component="h2">
        {t(`reliability.backups.${stage}.title`)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t(`reliability.backups.${stage}.help`, { max: MAX_FALLBACK_PROVIDERS })}
      </Typography>
      {fields.map((entry, index) => {
        const name = t(`reliability.backups.${stage}.item`, { number: index + 1 });
        return (
          <Box
            key={entry.id}
            component="section"
            aria-label={name}
            data-testid={`backup-${stage}-${index}`}
            sx={{ border: 1, borderColor: "divider", borderRadius: 1, p: 2, mb: 2 }}
          >
            <Stack direction="row" sx={{ alignItems: "center", mb: 2, minWidth: 0 }}>
              <Typography variant="subtitle1" component="h3" sx={{ flexGrow: 1, minWidth: 0 }}>
                {name}
              </Typography>
              <Tooltip title={t("reliability.backups.moveUp", { name })}>
                <span>
                  <IconButton
                    aria-label={t("reliability.backups.moveUp", { name })}
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                  >
                    <ArrowUpwardIcon />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title={t("reliability.backups.moveDown", { name })}>
                <span>
                  <IconButton
                    aria-label={t("reliability.backups.moveDown", { name })}
                    disabled={index === fields.length - 1}
                    onClick={() => move(index, index + 1)}
                  >
                    <ArrowDownwardIcon />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title={t("reliability.backups.remove", { name })}>
                <IconButton aria-label={t("reliability.backups.remove", { name })} onClick={() => remove(index)}>
                  <DeleteOutline />
                </IconButton>
              </Tooltip>
            </Stack>
            <BackupFields form={form} stage={stage} at={backupPaths(stage, index)} />
          </Box>
        );
      })}
      <Button
        variant="outlined"
        startIcon={<AddIcon />}
        disabled={full}
        onClick={() => append(newBackup(stage, form.getValues(`${stage}_provider`)))}
      >
        {t(`reliability.backups.${stage}.add`)}
      </Button>
      {full && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          {t("reliability.backups.full", { max: MAX_FALLBACK_PROVIDERS })}
        </Typography>
      )}
    </Box>
  );
}
