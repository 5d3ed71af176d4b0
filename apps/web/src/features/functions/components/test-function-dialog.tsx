import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { FunctionTestResult, ToolFunction } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTestFunction } from "../../../api/functions.ts";
import { errorText } from "../../../components/error-text.ts";
import { prettyJson } from "./parameters-json.ts";

/** Arguments as an object, or null when the text is not a JSON object. */
function parseArguments(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The webhook's answer as text, indented when it is JSON. */
function bodyText(body: string) {
  try {
    return prettyJson(JSON.parse(body));
  } catch {
    return body;
  }
}

function TestResult({ result }: { result: FunctionTestResult }) {
  const { t } = useTranslation("functions");
  return (
    <Stack spacing={1} role="status" aria-label={t("test.result")}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <Chip
          color={result.ok ? "success" : "error"}
          label={result.ok ? t("test.succeeded") : t("test.failed")}
          size="small"
        />
        <Typography variant="body2">{t("test.status", { status: result.status || "—" })}</Typography>
        <Typography variant="body2">{t("test.duration", { ms: result.duration_ms })}</Typography>
      </Stack>
      {result.error && <Alert severity="error">{result.error}</Alert>}
      <Typography variant="subtitle2" component="p">
        {t("test.body")}
      </Typography>
      <Box
        component="pre"
        tabIndex={0}
        aria-label={t("test.body")}
        dir="ltr"
        sx={{ m: 0, p: 1.5, maxHeight: 280, overflow: "auto", bgcolor: "action.hover", borderRadius: 1, fontSize: 13 }}
      >
        {bodyText(result.body)}
      </Box>
    </Stack>
  );
}

/** Calls the function's endpoint through the server with arguments typed as JSON. */
export function TestFunctionDialog({ fn, onClose }: { fn: ToolFunction; onClose: () => void }) {
  const { t } = useTranslation(["functions", "translation"], { nsMode: "fallback" });
  const [text, setText] = useState("{}");
  const args = parseArguments(text);
  const run = useTestFunction(fn.id);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="test-dialog-title">
      <DialogTitle id="test-dialog-title">{t("test.title", { name: fn.name })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary" dir="ltr">
            {fn.method} {fn.url}
          </Typography>
          <TextField
            label={t("test.arguments")}
            value={text}
            onChange={(e) => setText(e.target.value)}
            multiline
            minRows={4}
            error={args === null}
            helperText={args === null ? t("test.argumentsInvalid") : t("test.argumentsHelp")}
            slotProps={{ htmlInput: { spellCheck: false, dir: "ltr", style: { fontFamily: "monospace" } } }}
          />
          {run.isError && <Alert severity="error">{errorText(run.error, t("common.failed"))}</Alert>}
          {run.data && <TestResult result={run.data} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common.close")}</Button>
        <Button variant="contained" disabled={args === null || run.isPending} onClick={() => args && run.mutate(args)}>
          {run.isPending ? t("test.running") : t("test.run")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
