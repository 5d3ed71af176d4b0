import Breadcrumbs from "@mui/material/Breadcrumbs";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { useAssistant } from "../../../api/assistants.ts";
import { paths } from "../../../config/paths.ts";
import { testsPath } from "../paths.ts";

/**
 * Where a test page sits: Assistants › the assistant › Tests › the suite › the run. The assistant
 * stays in view because a suite calls that one assistant; each step but the last is a link.
 */
export function AssistantTrail(props: { assistantId: string; suite?: { id: string; name: string }; run?: string }) {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  const assistant = useAssistant(props.assistantId);
  const steps: { label: string; to?: string }[] = [
    { label: t("nav.assistants"), to: paths.assistants },
    { label: assistant.data?.name ?? "…", to: `${paths.assistants}/${props.assistantId}` },
    { label: t("title"), to: testsPath(props.assistantId) },
  ];
  if (props.suite) steps.push({ label: props.suite.name, to: testsPath(props.assistantId, props.suite.id) });
  if (props.run) steps.push({ label: props.run });
  return (
    <Breadcrumbs aria-label={t("trail")} sx={{ mb: 2, "& ol": { flexWrap: "wrap" } }}>
      {/* The page itself is the last step, not a link to itself. */}
      {steps.map((step, i) =>
        step.to && i < steps.length - 1 ? (
          <Link key={step.to} component={RouterLink} to={step.to} underline="hover" color="inherit" dir="auto">
            {step.label}
          </Link>
        ) : (
          <Typography key="here" color="text.primary" aria-current="page" dir="auto">
            {step.label}
          </Typography>
        ),
      )}
    </Breadcrumbs>
  );
}
