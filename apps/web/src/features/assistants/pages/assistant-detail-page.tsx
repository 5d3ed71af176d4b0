import AccountTreeOutlined from "@mui/icons-material/AccountTreeOutlined";
import ArrowBack from "@mui/icons-material/ArrowBack";
import RuleOutlined from "@mui/icons-material/RuleOutlined";
import ViewSidebarOutlined from "@mui/icons-material/ViewSidebarOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import type { Theme } from "@mui/material/styles";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import { useAssistant } from "../../../api/assistants.ts";
import { useIntegrations } from "../../../api/integrations.ts";
import { CenteredSpinner } from "../../../components/centered-spinner.tsx";
import { errorText } from "../../../components/error-text.ts";
import { MissingKeyNote } from "../../../components/missing-key/missing-key-note.tsx";
import { paths } from "../../../config/paths.ts";
import { ApiError } from "../../../lib/http-client.ts";
import { missingKeyProviders } from "../../../lib/missing-keys.ts";
import { useElementWidth } from "../../../lib/use-element-width.ts";
import { AssistantEditor } from "../components/assistant-editor.tsx";
import { AssistantSideList } from "../components/assistant-side-list.tsx";
import { TestCallButton, type TestCallPanel } from "../components/test-call-button.tsx";

/** The side list with its gap (px). */
const LIST_WIDTH = 304;
/** The editor's seven tab labels take about 900 px in English and more in German: keep them all in view. */
const EDITOR_MIN_WIDTH = 1100;
/** Beside the tabs the cost panel takes a third of the editor, so the tabs keep about 1000 px. */
const COST_BESIDE_MIN_WIDTH = 1500;

/**
 * /assistants/{assistantId}: the editor, with the other assistants listed beside it on wide screens.
 * The list folds away (folded unless the page is wide enough for it and the editor's seven tabs);
 * the cost panel sits beside the tabs only when the editor has the room for both. Widths are the
 * page's own, not the window's, since the boxed layout caps the page whatever the screen.
 * The test call's panel comes from the route (it is the live-call feature's).
 */
export default function AssistantDetailPage({ CallPanel }: { CallPanel: TestCallPanel }) {
  const { t } = useTranslation("assistants");
  const { assistantId = "" } = useParams();
  const assistant = useAssistant(assistantId);
  const notFound = assistant.error instanceof ApiError && assistant.error.status === 404;
  const integrations = useIntegrations();
  // The test call uses the saved assistant, so its saved providers decide which keys it needs.
  const missingKeys = assistant.data ? missingKeyProviders(integrations.data, assistant.data) : undefined;
  const keyNote = missingKeys && missingKeys.length > 0 ? "test-call-missing-keys" : undefined;

  const large = useMediaQuery((theme: Theme) => theme.breakpoints.up("lg"));
  const page = useRef<HTMLDivElement>(null);
  const width = useElementWidth(page);
  const [listChoice, setListChoice] = useState<boolean | null>(null);
  const listShown = large && (listChoice ?? width >= LIST_WIDTH + EDITOR_MIN_WIDTH);
  const editorWidth = width - (listShown ? LIST_WIDTH : 0);
  const listLabel = listShown ? t("editor.hideList") : t("editor.showList");

  return (
    <Box ref={page} sx={{ display: "flex", gap: 3, alignItems: "flex-start" }}>
      {listShown && (
        <Box id="assistant-side-list" sx={{ width: LIST_WIDTH - 24, flexShrink: 0 }}>
          <AssistantSideList currentId={assistantId} />
        </Box>
      )}
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: "center" }}>
          {large && (
            <Tooltip title={listLabel}>
              <IconButton
                aria-label={listLabel}
                aria-expanded={listShown}
                aria-controls={listShown ? "assistant-side-list" : undefined}
                onClick={() => setListChoice(!listShown)}
              >
                <ViewSidebarOutlined
                  sx={{ transform: (theme) => (theme.direction === "rtl" ? "none" : "scaleX(-1)") }}
                />
              </IconButton>
            </Tooltip>
          )}
          <Button
            component={RouterLink}
            to={paths.assistants}
            startIcon={<ArrowBack sx={{ transform: (theme) => (theme.direction === "rtl" ? "scaleX(-1)" : "none") }} />}
          >
            {t("editor.backToList")}
          </Button>
        </Stack>
        {assistant.isPending && <CenteredSpinner label={t("loading")} />}
        {assistant.isError && (
          <Box role="alert">
            <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
              {notFound ? t("editor.notFound") : t("editor.loadFailed")}
            </Typography>
            {notFound ? (
              <Typography color="text.secondary">{t("editor.notFoundHint")}</Typography>
            ) : (
              <Typography color="error">{errorText(assistant.error, t("notices.failed"))}</Typography>
            )}
          </Box>
        )}
        {assistant.data && keyNote && missingKeys && (
          <Box sx={{ mb: 2 }}>
            <MissingKeyNote id={keyNote} purpose="call" providers={missingKeys} />
          </Box>
        )}
        {assistant.data && (
          // Keyed by id: another assistant gets a fresh form (spec §4).
          <AssistantEditor
            key={assistant.data.id}
            assistant={assistant.data}
            costBeside={editorWidth >= COST_BESIDE_MIN_WIDTH}
            headerActions={
              <>
                <Button
                  component={RouterLink}
                  to={`${paths.assistants}/${assistant.data.id}/workflow`}
                  variant="outlined"
                  startIcon={<AccountTreeOutlined />}
                >
                  {assistant.data.workflow_id ? t("editor.workflowAttached") : t("editor.workflow")}
                </Button>
                {/* The assistant's test suites (the test-suites feature's page); "Tests" is the shell's nav label. */}
                <Button
                  component={RouterLink}
                  to={`${paths.assistants}/${assistant.data.id}/tests`}
                  variant="outlined"
                  startIcon={<RuleOutlined />}
                >
                  {t("nav.tests")}
                </Button>
                <TestCallButton
                  assistantId={assistant.data.id}
                  assistantName={assistant.data.name}
                  CallPanel={CallPanel}
                  missingKeyNote={keyNote}
                />
              </>
            }
          />
        )}
      </Box>
    </Box>
  );
}
