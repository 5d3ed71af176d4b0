import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Button from "@mui/material/Button";
import FormHelperText from "@mui/material/FormHelperText";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { ExpectationType, TEST_SUITE_LIMITS } from "@parley/contract";
import { useId, useState } from "react";
import { useFieldArray, useFormContext } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { blankExpectation, type CaseForm } from "../forms/case-form.ts";
import { useListError } from "./case-field.tsx";
import { ExpectationFields } from "./expectation-fields.tsx";

/** What the call must do to pass: one card per expectation, added by type. */
export function ExpectationsField() {
  const { t } = useTranslation("test-suites");
  const { control, clearErrors } = useFormContext<CaseForm>();
  const list = useFieldArray({ control, name: "expectations" });
  const listError = useListError("expectations");
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <Stack spacing={1.5} role="group" aria-label={t("expectation.heading")}>
      {list.fields.map((expectation, index) => (
        <Paper key={expectation.id} variant="outlined" sx={{ p: 1.5 }}>
          <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", mb: 1 }}>
            <Typography variant="subtitle2" component="p">
              {t(`expectation.types.${expectation.type}`)}
            </Typography>
            <IconButton
              aria-label={t("expectation.remove", { type: t(`expectation.types.${expectation.type}`), n: index + 1 })}
              onClick={() => list.remove(index)}
            >
              <DeleteOutline />
            </IconButton>
          </Stack>
          <ExpectationFields index={index} type={expectation.type} />
        </Paper>
      ))}
      {listError && <FormHelperText error>{listError}</FormHelperText>}
      <div>
        <Button
          size="small"
          startIcon={<AddIcon />}
          aria-haspopup="menu"
          aria-controls={anchor ? menuId : undefined}
          aria-expanded={anchor ? true : undefined}
          disabled={list.fields.length >= TEST_SUITE_LIMITS.expectationsPerCase}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          {t("expectation.add")}
        </Button>
        <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
          {ExpectationType.options.map((type) => (
            <MenuItem
              key={type}
              onClick={() => {
                setAnchor(null);
                clearErrors("expectations");
                list.append(blankExpectation(type));
              }}
            >
              {t(`expectation.types.${type}`)}
            </MenuItem>
          ))}
        </Menu>
      </div>
    </Stack>
  );
}
