import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { useAssistants } from "../../../api/assistants.ts";
import { useIntegrations } from "../../../api/integrations.ts";
import { errorText } from "../../../components/error-text.ts";
import { MissingKeyNote } from "../../../components/missing-key/missing-key-note.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { paths } from "../../../config/paths.ts";
import { missingKeyProviders } from "../../../lib/missing-keys.ts";

/**
 * Talk to any assistant of the workspace in the browser; the chosen one is kept in the URL. The
 * call panel is the live-call feature's, handed in by the route (features do not import each other).
 */
export default function VoiceAssistantPage({
  CallPanel,
}: {
  CallPanel: ComponentType<{ assistantId: string | undefined; assistantName?: string }>;
}) {
  const { t } = useTranslation("voice-assistant");
  const assistants = useAssistants();
  const [params, setParams] = useSearchParams();
  const chosen = params.get("assistantId") ?? assistants.data?.[0]?.id ?? "";
  const assistant = assistants.data?.find((a) => a.id === chosen);
  const integrations = useIntegrations();
  const missingKeys = assistant ? missingKeyProviders(integrations.data, assistant) : undefined;

  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle")} />
      {assistants.isPending && <CircularProgress aria-label={t("loading")} />}
      {assistants.isError && <Alert severity="error">{errorText(assistants.error, t("failed"))}</Alert>}
      {assistants.data?.length === 0 && (
        <Stack spacing={2} sx={{ alignItems: "flex-start" }}>
          <Typography color="text.secondary">{t("empty")}</Typography>
          <Button variant="contained" component={Link} to={paths.assistants}>
            {t("create")}
          </Button>
        </Stack>
      )}
      {assistants.data && assistants.data.length > 0 && (
        <Stack spacing={3} sx={{ maxWidth: 760 }}>
          <FormControl fullWidth>
            <InputLabel id="assistant-choice">{t("assistant")}</InputLabel>
            <Select
              labelId="assistant-choice"
              label={t("assistant")}
              value={assistant ? chosen : ""}
              onChange={(e) => setParams({ assistantId: e.target.value })}
            >
              {assistants.data.map((a) => (
                <MenuItem key={a.id} value={a.id}>
                  {a.name}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          {missingKeys && missingKeys.length > 0 && (
            <MissingKeyNote id="call-missing-keys" purpose="call" providers={missingKeys} />
          )}
          {/* A new panel per assistant: switching resets the call state. */}
          <CallPanel key={assistant?.id} assistantId={assistant?.id} assistantName={assistant?.name} />
        </Stack>
      )}
    </>
  );
}
