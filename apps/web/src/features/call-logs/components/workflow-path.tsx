import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { CallWorkflowRecord } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { paths } from "../../../config/paths.ts";
import { formatOffset } from "../format.ts";

const valueText = (value: unknown) => (value === null || value === undefined ? "—" : String(value));

/**
 * The call's way through its assistant's workflow: each step entered, when and why, then the
 * variables the call collected. Read from the log, as the engine wrote it.
 */
export function WorkflowPath({ workflow }: { workflow: CallWorkflowRecord }) {
  const { t } = useTranslation("call-logs");
  const variables = Object.entries(workflow.variables);
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        <RouterLink to={`${paths.workflows}/${workflow.workflow_id}`}>
          {t("detail.workflowVersion", { version: workflow.version })}
        </RouterLink>
      </Typography>
      <Box component="ol" sx={{ m: 0, pl: 3 }} aria-label={t("detail.workflowPath")}>
        {workflow.path.map((step, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the path only grows and a node may recur; its place is its identity
          <Box component="li" key={index} sx={{ mb: 0.5 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: "baseline", flexWrap: "wrap" }}>
              <Typography variant="caption" color="text.secondary" sx={{ fontVariantNumeric: "tabular-nums" }}>
                {formatOffset(step.entered_at_ms)}
              </Typography>
              <Typography variant="body2" dir="auto" sx={{ fontWeight: 600 }}>
                {step.node_name}
              </Typography>
              <Chip size="small" variant="outlined" label={t(`workflowNode.${step.node_type}`, step.node_type)} />
            </Stack>
            {step.reason && (
              <Typography variant="body2" color="text.secondary" dir="auto">
                {step.reason}
              </Typography>
            )}
          </Box>
        ))}
      </Box>
      <Typography variant="subtitle2" component="h4" sx={{ mt: 1.5, mb: 0.5 }}>
        {t("detail.workflowVariables")}
      </Typography>
      {variables.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t("detail.workflowNoVariables")}
        </Typography>
      ) : (
        <Box component="dl" sx={{ m: 0, display: "grid", gridTemplateColumns: "max-content 1fr", columnGap: 2 }}>
          {variables.map(([name, value]) => (
            <Box key={name} sx={{ display: "contents" }}>
              <Typography component="dt" variant="body2" sx={{ fontFamily: "monospace" }}>
                {name}
              </Typography>
              <Typography component="dd" variant="body2" dir="auto" sx={{ m: 0, overflowWrap: "anywhere" }}>
                {valueText(value)}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </>
  );
}
