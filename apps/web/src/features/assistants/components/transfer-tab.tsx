import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import Grid from "@mui/material/Grid";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { TransferMode } from "@parley/contract";
import { Controller, useFieldArray, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { DTMF_KEYS } from "../utils/assistant-form.ts";
import type { EditorForm } from "./editor-types.ts";
import { FormSwitch } from "./form-controls.tsx";
import { type FieldList, HALF, SettingsFields } from "./settings-fields.tsx";

/** Call transfer destinations and the keypad (DTMF) mapping. */
export function TransferTab({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  return (
    <Stack spacing={3}>
      <TransferDestinations form={form} />
      <Divider />
      <DtmfMapping form={form} />
      <Typography variant="body2" color="text.secondary">
        {t("transfer.typeNote")}
      </Typography>
    </Stack>
  );
}

function TransferDestinations({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const enabled = useWatch({ control, name: "call_transfer" });
  const rows = useFieldArray({ control, name: "transfer_config" });
  const destinationFields = (index: number): FieldList => {
    const n = index + 1;
    return [
      {
        kind: "text",
        name: `transfer_config.${index}.name`,
        label: t("transfer.destinationName", { n }),
        size: HALF,
        required: true,
      },
      {
        kind: "text",
        name: `transfer_config.${index}.number`,
        label: t("transfer.number", { n }),
        help: t("transfer.numberHelp"),
        size: HALF,
        required: true,
      },
      { kind: "text", name: `transfer_config.${index}.transfer_message`, label: t("transfer.message", { n }) },
    ];
  };
  return (
    <Stack spacing={2} component="section" aria-labelledby="transfer-heading">
      <Typography id="transfer-heading" variant="h6" component="h2">
        {t("transfer.title")}
      </Typography>
      <FormSwitch
        control={control}
        name="call_transfer"
        label={t("transfer.enabled")}
        helperText={t("transfer.help")}
      />
      {rows.fields.length === 0 && <Typography color="text.secondary">{t("transfer.none")}</Typography>}
      {rows.fields.map((row, index) => (
        <Paper key={row.id} variant="outlined" sx={{ p: 2 }}>
          {/* Name and number share a line, the message gets its own: each field keeps a readable width. */}
          <Stack direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
            <Grid container spacing={2} sx={{ flex: 1 }}>
              <SettingsFields control={control} fields={destinationFields(index)} />
              <TransferModeFields form={form} index={index} />
            </Grid>
            <IconButton aria-label={t("transfer.remove", { n: index + 1 })} onClick={() => rows.remove(index)}>
              <DeleteOutline />
            </IconButton>
          </Stack>
        </Paper>
      ))}
      <Button
        startIcon={<AddIcon />}
        onClick={() => rows.append({ name: "", number: "", transfer_message: "" })}
        sx={{ alignSelf: "flex-start" }}
        disabled={rows.fields.length >= 50}
      >
        {t("transfer.add")}
      </Button>
      {!enabled && rows.fields.length > 0 && (
        <Typography variant="body2" color="text.secondary">
          {t("transfer.disabledNote")}
        </Typography>
      )}
    </Stack>
  );
}

/**
 * Cold or warm, and for warm the briefing. A destination saved before modes existed has none: it
 * shows as cold and is saved without one until the select is changed, so old assistants round-trip.
 */
function TransferModeFields({ form, index }: { form: EditorForm; index: number }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const mode = useWatch({ control, name: `transfer_config.${index}.mode` });
  return (
    <SettingsFields
      control={control}
      fields={[
        {
          kind: "custom",
          key: `transfer_config.${index}.mode`,
          size: HALF,
          node: (
            <Controller
              control={control}
              name={`transfer_config.${index}.mode`}
              render={({ field }) => (
                <TextField
                  select
                  fullWidth
                  label={t("transfer.mode", { n: index + 1 })}
                  name={field.name}
                  inputRef={field.ref}
                  value={field.value ?? "cold"}
                  onBlur={field.onBlur}
                  onChange={(event) => {
                    const picked = TransferMode.safeParse(event.target.value);
                    if (picked.success) field.onChange(picked.data);
                  }}
                >
                  <MenuItem value="cold">{t("transfer.modeCold")}</MenuItem>
                  <MenuItem value="warm">{t("transfer.modeWarm")}</MenuItem>
                </TextField>
              )}
            />
          ),
        },
        mode === "warm" && {
          kind: "text",
          name: `transfer_config.${index}.briefing`,
          label: t("transfer.briefing", { n: index + 1 }),
          help: t("transfer.briefingHelp"),
          rows: { min: 2 },
        },
      ]}
    />
  );
}

function DtmfMapping({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const rows = useFieldArray({ control, name: "dtmf_mapping" });
  const used = useWatch({ control, name: "dtmf_mapping" }) ?? [];
  const nextFree = DTMF_KEYS.find((key) => !used.some((row) => row.digit === key));
  const mappingError = form.formState.errors.dtmf_mapping?.root?.message ?? form.formState.errors.dtmf_mapping?.message;
  return (
    <Stack spacing={2} component="section" aria-labelledby="dtmf-heading">
      <Typography id="dtmf-heading" variant="h6" component="h2">
        {t("dtmf.title")}
      </Typography>
      <FormSwitch control={control} name="dtmf_enabled" label={t("dtmf.enabled")} helperText={t("dtmf.help")} />
      {rows.fields.length === 0 && <Typography color="text.secondary">{t("dtmf.none")}</Typography>}
      {rows.fields.map((row, index) => (
        <Stack key={row.id} direction="row" spacing={2} sx={{ alignItems: "flex-start" }}>
          <FormTextField
            control={control}
            name={`dtmf_mapping.${index}.digit`}
            select
            label={t("dtmf.key", { n: index + 1 })}
            sx={{ width: 120 }}
          >
            {DTMF_KEYS.map((key) => (
              <MenuItem key={key} value={key}>
                {key}
              </MenuItem>
            ))}
          </FormTextField>
          <FormTextField
            control={control}
            name={`dtmf_mapping.${index}.value`}
            label={t("dtmf.value", { n: index + 1 })}
            helperText={t("dtmf.valueHelp")}
            sx={{ flex: 1 }}
          />
          <IconButton aria-label={t("dtmf.remove", { n: index + 1 })} onClick={() => rows.remove(index)}>
            <DeleteOutline />
          </IconButton>
        </Stack>
      ))}
      {mappingError && <Typography color="error">{mappingError}</Typography>}
      <Button
        startIcon={<AddIcon />}
        onClick={() => nextFree && rows.append({ digit: nextFree, value: "" })}
        disabled={!nextFree}
        sx={{ alignSelf: "flex-start" }}
      >
        {t("dtmf.add")}
      </Button>
    </Stack>
  );
}
