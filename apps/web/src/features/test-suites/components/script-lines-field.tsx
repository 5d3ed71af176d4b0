import AddIcon from "@mui/icons-material/Add";
import ArrowDownward from "@mui/icons-material/ArrowDownward";
import ArrowUpward from "@mui/icons-material/ArrowUpward";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Button from "@mui/material/Button";
import FormHelperText from "@mui/material/FormHelperText";
import Grid from "@mui/material/Grid";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { TEST_SUITE_LIMITS } from "@parley/contract";
import { useFieldArray, useFormContext } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { CaseForm } from "../forms/case-form.ts";
import { CaseField, useListError } from "./case-field.tsx";

/** The caller's script: a line per turn, what they say and how long they wait first; add, remove, reorder. */
export function ScriptLinesField() {
  const { t } = useTranslation("test-suites");
  const { control, clearErrors } = useFormContext<CaseForm>();
  const lines = useFieldArray({ control, name: "caller.script" });
  const listError = useListError("caller.script");
  return (
    <Stack spacing={1} role="group" aria-label={t("caller.script")}>
      <Typography variant="subtitle2" component="p">
        {t("caller.script")}
      </Typography>
      {lines.fields.map((line, index) => (
        <Grid container spacing={1} key={line.id} sx={{ alignItems: "flex-start" }}>
          <Grid size={{ xs: 12, sm: 7 }}>
            <CaseField
              name={`caller.script.${index}.text`}
              label={t("caller.lineText", { n: index + 1 })}
              multiline
              maxRows={4}
            />
          </Grid>
          <Grid size={{ xs: 6, sm: 2.5 }}>
            <CaseField name={`caller.script.${index}.wait_ms`} label={t("caller.waitMs")} numeric="numeric" />
          </Grid>
          <Grid size={{ xs: 6, sm: 2.5 }} sx={{ display: "flex", justifyContent: "flex-end" }}>
            <IconButton
              aria-label={t("caller.moveUp", { n: index + 1 })}
              disabled={index === 0}
              onClick={() => lines.move(index, index - 1)}
            >
              <ArrowUpward />
            </IconButton>
            <IconButton
              aria-label={t("caller.moveDown", { n: index + 1 })}
              disabled={index === lines.fields.length - 1}
              onClick={() => lines.move(index, index + 1)}
            >
              <ArrowDownward />
            </IconButton>
            <IconButton aria-label={t("caller.removeLine", { n: index + 1 })} onClick={() => lines.remove(index)}>
              <DeleteOutline />
            </IconButton>
          </Grid>
        </Grid>
      ))}
      {listError && <FormHelperText error>{listError}</FormHelperText>}
      <div>
        <Button
          size="small"
          startIcon={<AddIcon />}
          disabled={lines.fields.length >= TEST_SUITE_LIMITS.scriptLines}
          onClick={() => {
            clearErrors("caller.script");
            lines.append({ text: "", wait_ms: "400" });
          }}
        >
          {t("caller.addLine")}
        </Button>
      </div>
      <Typography variant="caption" color="text.secondary">
        {t("caller.scriptHint")}
      </Typography>
    </Stack>
  );
}
