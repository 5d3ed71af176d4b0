import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type AnalysisObjectSchema, analysisSchemaIssues, isAnalysisSchema } from "@parley/contract";
import { type Ref, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { readSchemaText, schemaText } from "./schema-text.ts";

/** What "Insert an example" writes: every kind of property the subset admits. */
export const EXAMPLE_SCHEMA: AnalysisObjectSchema = {
  type: "object",
  properties: {
    customer_name: { type: "string", description: "The caller's full name" },
    appointment_date: { type: "string", description: "The booked date as YYYY-MM-DD" },
    party_size: { type: "integer" },
    outcome: { type: "string", enum: ["booked", "declined", "callback"] },
    topics: { type: "array", items: { type: "string" } },
  },
  required: ["outcome"],
};

/**
 * The JSON schema of the data a call's analysis extracts, edited as text. The form receives the
 * parsed object, or the raw text while it is not JSON (which the form's schema then refuses, so a
 * broken schema is never saved); the problems show live under the field, each at its path.
 */
export function JsonSchemaField(props: {
  value: unknown;
  onChange: (value: unknown) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLTextAreaElement | HTMLInputElement>;
  name?: string;
  /** The form's own message for the field as a whole (e.g. a schema is required). */
  error?: string | undefined;
}) {
  const { t } = useTranslation("call-analysis");
  const [text, setText] = useState(() => schemaText(props.value));
  const problemsId = useId();

  // A reset of the form (after a save, or another assistant) brings a new value: show it, unless it
  // is what the text already says.
  useEffect(() => {
    setText((current) =>
      JSON.stringify(readSchemaText(current).value) === JSON.stringify(props.value) ? current : schemaText(props.value),
    );
  }, [props.value]);

  const change = (next: string) => {
    setText(next);
    props.onChange(readSchemaText(next).value);
  };
  const read = readSchemaText(text);
  const issues = read.json ? analysisSchemaIssues(read.value) : [];
  const count = isAnalysisSchema(read.value) ? Object.keys(read.value.properties).length : 0;
  const broken = Boolean(read.syntaxError) || issues.length > 0;
  // The form's own message would only repeat a problem the list below already names.
  const formError = broken ? undefined : props.error;

  return (
    <Stack spacing={1}>
      <TextField
        label={t("data.schema")}
        name={props.name}
        inputRef={props.inputRef}
        value={text}
        onChange={(e) => change(e.target.value)}
        onBlur={props.onBlur}
        multiline
        minRows={8}
        maxRows={24}
        fullWidth
        error={broken || Boolean(formError)}
        helperText={formError ?? t("data.schemaHelp")}
        slotProps={{
          // JSON reads left to right in every language.
          htmlInput: { dir: "ltr", spellCheck: false, "aria-describedby": problemsId },
          input: { sx: { fontFamily: "monospace", fontSize: 13 } },
        }}
      />
      <Box id={problemsId} aria-live="polite">
        {read.syntaxError && (
          <Typography variant="body2" color="error">
            {t("data.invalidJson", { message: read.syntaxError })}
          </Typography>
        )}
        {issues.length > 0 && (
          <>
            <Typography variant="body2" color="error">
              {t("data.issues")}
            </Typography>
            <Box component="ul" sx={{ m: 0, ps: 3 }} data-testid="schema-issues">
              {issues.map((issue) => (
                <Typography
                  component="li"
                  variant="body2"
                  color="error"
                  key={`${issue.path.join(".")}:${issue.message}`}
                >
                  <Box component="code" dir="ltr" sx={{ fontFamily: "monospace" }}>
                    {issue.path.join(".") || "$"}
                  </Box>
                  {` — ${issue.message}`}
                </Typography>
              ))}
            </Box>
          </>
        )}
        {read.json && issues.length === 0 && (
          <Typography variant="body2" color="success.main">
            {t("data.valid", { count })}
          </Typography>
        )}
      </Box>
      {/* Offered on an empty field only, so it never overwrites a schema. */}
      {text.trim() === "" && (
        <div>
          <Button size="small" onClick={() => change(schemaText(EXAMPLE_SCHEMA))}>
            {t("data.example")}
          </Button>
        </div>
      )}
    </Stack>
  );
}
