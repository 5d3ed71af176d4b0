import CheckCircleOutline from "@mui/icons-material/CheckCircleOutline";
import ErrorOutline from "@mui/icons-material/ErrorOutline";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { type OriginEntry, parseOriginList } from "../forms/origin-list.ts";
import type { WidgetEditorInput, WidgetEditorOutput } from "../forms/widget-form.ts";

type FormControl = Control<WidgetEditorInput, unknown, WidgetEditorOutput>;

/**
 * The allowed sites, typed one per line (or comma-separated), with each site below as it will be
 * saved, or with what is wrong with that one site, while it is typed. The input takes the form's
 * ref, so a refused save can focus it.
 */
export function OriginsField({ control }: { control: FormControl }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  return (
    <Controller
      control={control}
      name="origins_text"
      render={({ field, fieldState }) => {
        const entries = parseOriginList(field.value ?? "");
        const wrong = entries.some((entry) => entry.problem !== null);
        // The list below names each site's problem; a complaint from the server has no site to sit by.
        const helper = fieldState.error
          ? fieldState.error.type === "server" || !wrong
            ? fieldState.error.message
            : t("originsInvalid")
          : t("originsHelp");
        return (
          <>
            <TextField
              name={field.name}
              value={field.value ?? ""}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              label={t("fields.origins")}
              helperText={helper}
              error={Boolean(fieldState.error)}
              placeholder="https://www.example.com"
              multiline
              minRows={3}
              fullWidth
              slotProps={{ htmlInput: { dir: "ltr", spellCheck: false } }}
            />
            {entries.length > 0 && <OriginList entries={entries} label={t("originsParsed")} />}
          </>
        );
      }}
    />
  );
}

function OriginList({ entries, label }: { entries: OriginEntry[]; label: string }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{ listStyle: "none", p: 0, m: 0, mt: 1, display: "flex", flexWrap: "wrap", gap: 1 }}
    >
      {keyed(entries).map(({ key, entry }) => (
        <Box
          component="li"
          key={key}
          sx={
            entry.problem ? { flexBasis: "100%", display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1 } : {}
          }
        >
          <Chip
            size="small"
            variant="outlined"
            dir="ltr"
            color={entry.problem ? "error" : "success"}
            icon={entry.problem ? <ErrorOutline /> : <CheckCircleOutline />}
            label={entry.origin ?? entry.text}
            sx={{ maxWidth: "100%" }}
          />
          {entry.problem && (
            <Typography variant="caption" color="error">
              {t(`originProblems.${entry.problem}`)}
            </Typography>
          )}
        </Box>
      ))}
    </Box>
  );
}

/** A key per entry: its text, and which time it is typed (the same site may be typed twice). */
function keyed(entries: OriginEntry[]) {
  const seen = new Map<string, number>();
  return entries.map((entry) => {
    const count = (seen.get(entry.text) ?? 0) + 1;
    seen.set(entry.text, count);
    return { key: `${count}:${entry.text}`, entry };
  });
}
