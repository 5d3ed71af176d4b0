import ArrowBack from "@mui/icons-material/ArrowBack";
import Button from "@mui/material/Button";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import { paths } from "../../../config/paths.ts";
import { WorkflowLoader } from "../components/workflow-loader.tsx";

/** /workflows/{workflowId}: the builder of one workflow. */
export default function WorkflowBuilderPage() {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { workflowId = "" } = useParams();
  return (
    <WorkflowLoader
      workflowId={workflowId}
      heading={
        <div>
          <Button
            component={RouterLink}
            to={paths.workflows}
            size="small"
            startIcon={
              <ArrowBack sx={{ transform: (theme) => (theme.direction === "rtl" ? "scaleX(-1)" : undefined) }} />
            }
          >
            {t("backToList")}
          </Button>
        </div>
      }
    />
  );
}
