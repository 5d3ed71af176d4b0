import AutoAwesomeOutlined from "@mui/icons-material/AutoAwesomeOutlined";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Grid from "@mui/material/Grid";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import type { GenerateTestCasesBody } from "@parley/contract";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/form-dialog.tsx";

/**
 * "Generate cases": starter cases from the assistant's workflow (one per branch) at once, or from
 * its prompt after asking how many. `onGenerate` throws with the server's reason when it cannot.
 */
export function GenerateMenu(props: { busy: boolean; onGenerate: (body: GenerateTestCasesBody) => Promise<unknown> }) {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [asking, setAsking] = useState(false);
  const [count, setCount] = useState("3");
  const countValid = /^\d+$/.test(count) && Number(count) >= 1 && Number(count) <= 10;
  return (
    <>
      <Button
        variant="outlined"
        startIcon={props.busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : <AutoAwesomeOutlined />}
        disabled={props.busy}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {props.busy ? t("generate.busy") : t("generate.button")}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            void props.onGenerate({ source: "workflow" }).catch(() => undefined);
          }}
        >
          {t("generate.fromWorkflow")}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setAsking(true);
          }}
        >
          {t("generate.fromPrompt")}
        </MenuItem>
      </Menu>
      {asking && (
        <FormDialog
          title={t("generate.promptTitle")}
          onClose={() => setAsking(false)}
          busy={props.busy}
          busySpinner
          lockWhileBusy
          busyLabel={t("generate.busy")}
          submitLabel={t("generate.submit")}
          onSubmit={async (event) => {
            event.preventDefault();
            if (!countValid) return;
            await props.onGenerate({ source: "prompt", count: Number(count) });
            setAsking(false);
          }}
        >
          <Grid size={12}>
            <TextField
              type="number"
              label={t("generate.count")}
              value={count}
              onChange={(event) => setCount(event.target.value)}
              error={!countValid}
              helperText={countValid ? t("generate.countHint") : t("generate.countInvalid")}
              slotProps={{ htmlInput: { min: 1, max: 10, dir: "ltr" } }}
              fullWidth
              autoFocus
            />
          </Grid>
        </FormDialog>
      )}
    </>
  );
}
