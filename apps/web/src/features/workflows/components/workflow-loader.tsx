import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { ReactFlowProvider } from "@xyflow/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { errorText } from "../../../components/error-text.ts";
import { paths } from "../../../config/paths.ts";
import { ApiError } from "../../../lib/http-client.ts";
import { useDeferredQuery } from "../../../lib/use-deferred-query.ts";
import { useWorkflow } from "../api/workflows-api.ts";
import { BuilderLoading } from "./builder-frame.tsx";
import { WorkflowBuilder } from "./workflow-builder.tsx";

/** Loads a workflow and shows its builder: its outline meanwhile, a way back when it is not there. */
export function WorkflowLoader(props: { workflowId: string; heading?: ReactNode }) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  // The builder (the flow canvas above all) is drawn in an interruptible render once the workflow
  // arrives (lib/use-deferred-query.ts); its outline shows meanwhile.
  const workflow = useDeferredQuery(useWorkflow(props.workflowId));
  if (workflow.isPending) return <BuilderLoading heading={props.heading} />;
  if (workflow.error || !workflow.data) {
    const missing = workflow.error instanceof ApiError && workflow.error.status === 404;
    return (
      <>
        {props.heading}
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" component={RouterLink} to={paths.workflows}>
              {t("backToList")}
            </Button>
          }
        >
          {missing ? t("notFound") : errorText(workflow.error, t("loadOneFailed"))}
        </Alert>
      </>
    );
  }
  return (
    <ReactFlowProvider>
      {/* A new builder per workflow: its draft and undo history belong to that workflow. */}
      <WorkflowBuilder key={workflow.data.id} workflow={workflow.data} heading={props.heading} />
    </ReactFlowProvider>
  );
}
