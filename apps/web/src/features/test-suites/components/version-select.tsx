import CircularProgress from "@mui/material/CircularProgress";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useTranslation } from "react-i18next";
import { useAssistantVersions } from "../api/test-runs-api.ts";

/** The select's value for "the version published when the run starts" (no version sent). */
const PUBLISHED = "published";

/**
 * Which version of the suite's assistant a run calls: the published one (the default), or any
 * version it has had, so an older or newer configuration can be tested without publishing it.
 * Versions that cannot be read leave only the default, with the reason under the field.
 */
export function VersionSelect(props: {
  agentId: string;
  value: number | null;
  onChange: (version: number | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation("test-suites");
  const versions = useAssistantVersions(props.agentId);
  const published = versions.data?.find((version) => version.published);
  return (
    <TextField
      select
      size="small"
      label={t("versionSelect.label")}
      value={props.value === null ? PUBLISHED : String(props.value)}
      onChange={(event) => props.onChange(event.target.value === PUBLISHED ? null : Number(event.target.value))}
      disabled={props.disabled}
      error={versions.isError}
      helperText={versions.isError ? t("versionSelect.loadFailed") : undefined}
      sx={{ minWidth: 200, maxWidth: "100%" }}
      slotProps={{
        input: versions.isPending
          ? {
              endAdornment: (
                <InputAdornment position="end" sx={{ marginInlineEnd: 3 }}>
                  <CircularProgress size={16} aria-label={t("versionSelect.loading")} />
                </InputAdornment>
              ),
            }
          : {},
      }}
    >
      <MenuItem value={PUBLISHED}>
        {published ? t("versionSelect.publishedNumber", { number: published.number }) : t("versionSelect.published")}
      </MenuItem>
      {(versions.data ?? []).map((version) => (
        <MenuItem key={version.number} value={String(version.number)} sx={{ maxWidth: 360, whiteSpace: "normal" }}>
          <bdi>
            {version.note
              ? t("versionSelect.numberNote", { number: version.number, note: version.note })
              : t("versionSelect.number", { number: version.number })}
          </bdi>
        </MenuItem>
      ))}
    </TextField>
  );
}
