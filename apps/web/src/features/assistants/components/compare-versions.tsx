import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { AssistantVersionSummary, FieldChange } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { useVersionDiff } from "../api/versions-api.ts";

/** A field's value as text: strings as they are, anything else as JSON; nothing reads "(none)". */
function valueText(value: unknown, none: string): string {
  if (value === undefined || value === null || value === "") return none;
  return typeof value === "string" ? value : JSON.stringify(value, null, 1);
}

/** Two versions chosen, the fields that differ from the one to the other. */
export function CompareVersions(props: {
  assistantId: string;
  versions: readonly AssistantVersionSummary[];
  from: number | null;
  to: number | null;
  onChange: (from: number | null, to: number | null) => void;
}) {
  const { t } = useTranslation("assistants");
  const diff = useVersionDiff(props.assistantId, props.from, props.to);
  const select = (label: string, value: number | null, set: (n: number) => void) => (
    <TextField
      select
      size="small"
      label={label}
      value={value ?? ""}
      onChange={(event) => set(Number(event.target.value))}
      sx={{ minWidth: 140, flex: { xs: 1, sm: "none" } }}
    >
      {props.versions.map((version) => (
        <MenuItem key={version.number} value={version.number}>
          {t("versions.number", { number: version.number })}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <Box component="section" aria-labelledby="compare-versions-heading">
      <Typography id="compare-versions-heading" variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        {t("versions.compareTitle")}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mb: 2, alignItems: "center" }}>
        {select(t("versions.from"), props.from, (n) => props.onChange(n, props.to))}
        <Typography aria-hidden sx={{ transform: (theme) => (theme.direction === "rtl" ? "scaleX(-1)" : "none") }}>
          →
        </Typography>
        {select(t("versions.to"), props.to, (n) => props.onChange(props.from, n))}
      </Stack>
      {props.from !== null && props.from === props.to && (
        <Typography color="text.secondary">{t("versions.sameVersion")}</Typography>
      )}
      {diff.isFetching && !diff.data && <CircularProgress size={24} aria-label={t("loading")} />}
      {diff.isError && <Alert severity="error">{errorText(diff.error, t("versions.diffFailed"))}</Alert>}
      {diff.data && props.from !== props.to && <Changes changes={diff.data.changes} />}
    </Box>
  );
}

function Changes({ changes }: { changes: readonly FieldChange[] }) {
  const { t } = useTranslation("assistants");
  if (changes.length === 0) return <Typography color="text.secondary">{t("versions.noChanges")}</Typography>;
  const none = t("versions.none");
  return (
    <Box component="ul" aria-label={t("versions.changes")} sx={{ listStyle: "none", p: 0, m: 0 }}>
      {changes.map((change) => (
        <Box
          component="li"
          key={change.field}
          data-field={change.field}
          sx={{ py: 1.5, borderTop: 1, borderColor: "divider", minWidth: 0 }}
        >
          <Typography component="code" dir="ltr" sx={{ fontFamily: "monospace", fontWeight: 600 }}>
            {change.field}
          </Typography>
          <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, gap: 1, mt: 0.5 }}>
            <ValueBox label={t("versions.before")} text={valueText(change.from, none)} tone="error" />
            <ValueBox label={t("versions.after")} text={valueText(change.to, none)} tone="success" />
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function ValueBox({ label, text, tone }: { label: string; text: string; tone: "error" | "success" }) {
  return (
    <Box
      // Focusable so a keyboard can scroll a long value.
      tabIndex={0}
      sx={{
        p: 1,
        borderRadius: 1,
        border: 1,
        borderColor: `${tone}.main`,
        minWidth: 0,
        // Long prompts scroll inside their box rather than widening the page.
        maxHeight: 240,
        overflow: "auto",
      }}
    >
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="body2" dir="auto" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
        {text}
      </Typography>
    </Box>
  );
}
