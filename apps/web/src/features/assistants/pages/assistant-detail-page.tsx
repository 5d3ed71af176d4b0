import ArrowBack from "@mui/icons-material/ArrowBack";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import { CenteredSpinner } from "../../../components/centered-spinner.tsx";
import { errorText } from "../../../components/error-text.ts";
import { paths } from "../../../config/paths.ts";
import { ApiError } from "../../../lib/http-client.ts";
import { assistantQuery } from "../api/assistants-api.ts";
import { AssistantEditor } from "../components/assistant-editor.tsx";
import { AssistantSideList } from "../components/assistant-side-list.tsx";
import { TestCallButton } from "../components/test-call-button.tsx";

/** /assistants/{assistantId}: the editor, with the other assistants listed beside it on wide screens. */
export default function AssistantDetailPage() {
  const { t } = useTranslation("assistants");
  const { assistantId = "" } = useParams();
  const assistant = useQuery(assistantQuery(assistantId));
  const notFound = assistant.error instanceof ApiError && assistant.error.status === 404;

  return (
    <Grid container spacing={3}>
      <Grid size={{ lg: 3 }} sx={{ display: { xs: "none", lg: "block" } }}>
        <AssistantSideList currentId={assistantId} />
      </Grid>
      <Grid size={{ xs: 12, lg: 9 }}>
        <Button
          component={RouterLink}
          to={paths.assistants}
          startIcon={<ArrowBack sx={{ transform: (theme) => (theme.direction === "rtl" ? "scaleX(-1)" : "none") }} />}
          sx={{ mb: 1 }}
        >
          {t("editor.backToList")}
        </Button>
        {assistant.isPending && <CenteredSpinner label={t("loading")} />}
        {assistant.isError && (
          <Box role="alert">
            <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
              {notFound ? t("editor.notFound") : t("editor.loadFailed")}
            </Typography>
            {!notFound && <Typography color="error">{errorText(assistant.error, t("notices.failed"))}</Typography>}
          </Box>
        )}
        {assistant.data && (
          // Keyed by id: another assistant gets a fresh form (spec §4).
          <AssistantEditor
            key={assistant.data.id}
            assistant={assistant.data}
            headerActions={<TestCallButton assistantId={assistant.data.id} assistantName={assistant.data.name} />}
          />
        )}
      </Grid>
    </Grid>
  );
}
