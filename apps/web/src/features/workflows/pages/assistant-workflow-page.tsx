import ArrowBack from "@mui/icons-material/ArrowBack";
import LinkOff from "@mui/icons-material/LinkOff";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Assistant } from "@parley/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import { assistantKeys, useAssistant, useUpdateAssistant } from "../../../api/assistants.ts";
import { CenteredSpinner } from "../../../components/centered-spinner.tsx";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { paths } from "../../../config/paths.ts";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { useSnackbar } from "../../../lib/snackbar.ts";
import { workflowKeys } from "../api/workflows-api.ts";
import { AttachWorkflowCard } from "../components/attach-workflow-card.tsx";
import { WorkflowLoader } from "../components/workflow-loader.tsx";

/**
 * /assistants/{assistantId}/workflow: the workflow this assistant's calls run. Without one, attach
 * a workflow of the workspace or create the assistant's own; with one, its builder.
 */
export default function AssistantWorkflowPage() {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { assistantId = "" } = useParams();
  const assistant = useAssistant(assistantId);
  if (assistant.isPending) return <CenteredSpinner />;
  if (assistant.error) return <Alert severity="error">{errorText(assistant.error, t("assistant.loadFailed"))}</Alert>;
  return <AssistantWorkflow assistant={assistant.data} />;
}

function AssistantWorkflow({ assistant }: { assistant: Assistant }) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  const update = useUpdateAssistant(assistant.id);
  const [detaching, setDetaching] = useState(false);

  const setWorkflow = async (workflowId: string | null) => {
    await update.mutateAsync({ workflow_id: workflowId });
    // The workflows name the assistants that use them.
    await queryClient.invalidateQueries({ queryKey: workflowKeys.all(workspaceId) });
  };
  const heading = (
    <Stack spacing={1}>
      <div>
        <Button
          component={RouterLink}
          to={`${paths.assistants}/${assistant.id}`}
          size="small"
          startIcon={
            <ArrowBack sx={{ transform: (theme) => (theme.direction === "rtl" ? "scaleX(-1)" : undefined) }} />
          }
        >
          {t("assistant.back", { name: assistant.name })}
        </Button>
      </div>
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: "center", justifyContent: "space-between", flexWrap: "wrap" }}
      >
        <Typography color="text.secondary">{t("assistant.runs", { name: assistant.name })}</Typography>
        {assistant.workflow_id && (
          <Button startIcon={<LinkOff />} onClick={() => setDetaching(true)}>
            {t("assistant.detach")}
          </Button>
        )}
      </Stack>
    </Stack>
  );
  return (
    <>
      {assistant.workflow_id ? (
        <WorkflowLoader workflowId={assistant.workflow_id} heading={heading} />
      ) : (
        <Stack spacing={2}>
          {heading}
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
            {t("assistant.title", { name: assistant.name })}
          </Typography>
          <AttachWorkflowCard
            assistant={assistant}
            onAttach={async (workflowId) => {
              await setWorkflow(workflowId);
              enqueueSnackbar(t("assistant.attached"), { variant: "success" });
            }}
            onCreated={async () => {
              await queryClient.invalidateQueries({ queryKey: assistantKeys.detail(workspaceId, assistant.id) });
              enqueueSnackbar(t("created"), { variant: "success" });
            }}
          />
        </Stack>
      )}
      <ConfirmDialog
        open={detaching}
        title={t("assistant.detachTitle")}
        text={t("assistant.detachText", { name: assistant.name })}
        confirmLabel={t("assistant.detach")}
        busy={update.isPending}
        onClose={() => setDetaching(false)}
        onConfirm={() => {
          setDetaching(false);
          setWorkflow(null).then(
            () => enqueueSnackbar(t("assistant.detached"), { variant: "success" }),
            (error: unknown) => enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" }),
          );
        }}
      />
    </>
  );
}
