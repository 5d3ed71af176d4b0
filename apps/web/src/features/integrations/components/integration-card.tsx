import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardActions from "@mui/material/CardActions";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { Integration, IntegrationTestResult } from "@parley/contract";
import type { ReactElement } from "react";
import { useTranslation } from "react-i18next";
import { fieldLabel } from "./credentials-form.ts";

function StatusChip({ integration }: { integration: Integration }) {
  const { t } = useTranslation("integrations");
  if (integration.configured) return <Chip size="small" color="success" label={t("status.configured")} />;
  if (integration.source === "environment") return <Chip size="small" color="info" label={t("status.environment")} />;
  return <Chip size="small" variant="outlined" label={t("status.none")} />;
}

function MaskedValues({ integration }: { integration: Integration }) {
  const { t } = useTranslation("integrations");
  const shown = integration.fields.filter((f) => integration.values[f.name]);
  if (shown.length === 0) return null;
  return (
    <Box component="dl" sx={{ m: 0, display: "grid", gridTemplateColumns: "auto 1fr", columnGap: 2, rowGap: 0.5 }}>
      {shown.map((f) => (
        <Box key={f.name} sx={{ display: "contents" }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {fieldLabel(f, t)}
          </Typography>
          <Typography
            component="dd"
            variant="body2"
            dir="ltr"
            sx={{ m: 0, fontFamily: "monospace", wordBreak: "break-all" }}
          >
            {integration.values[f.name]}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** The latest test: the one just run on this page, else the one the server remembers. */
function TestOutcome({ integration, result }: { integration: Integration; result: IntegrationTestResult | null }) {
  const { t, i18n } = useTranslation("integrations");
  const shown = result ?? integration.last_test;
  if (!shown) return null;
  const when = integration.last_test && !result ? new Date(integration.last_test.tested_at) : null;
  return (
    <Alert severity={shown.ok ? "success" : "error"} role="status" sx={{ mt: 1 }}>
      {shown.ok ? t("testOk") : t("testFailed")} {shown.message}
      {when && (
        <Typography variant="caption" component="span" sx={{ display: "block" }}>
          {t("testedAt", { when: when.toLocaleString(i18n.language) })}
        </Typography>
      )}
    </Alert>
  );
}

/**
 * An owner-only action: for members it is shown disabled, and hovering or focusing it says why (a
 * disabled button gets no pointer events, so the reason sits on a focusable wrapper).
 */
function OwnerAction({ reason, children }: { reason: string | null; children: ReactElement }) {
  if (!reason) return children;
  return (
    <Tooltip title={reason}>
      <Box component="span" tabIndex={0} aria-label={reason} sx={{ display: "inline-flex" }}>
        {children}
      </Box>
    </Tooltip>
  );
}

/** One provider: whether it is connected, its masked credentials, and what can be done with them. */
export function IntegrationCard(props: {
  integration: Integration;
  testResult: IntegrationTestResult | null;
  testing: boolean;
  onEdit: () => void;
  onTest: () => void;
  onRemove: () => void;
  /** Why the changing actions are not offered (a member's view), or null for owners. */
  readOnlyReason: string | null;
}) {
  const { t } = useTranslation("integrations");
  const { integration } = props;
  const others = integration.kinds.filter((k) => k !== integration.kind);
  const headingId = `integration-${integration.provider}`;
  const reason = props.readOnlyReason;
  return (
    <Card
      component="section"
      aria-labelledby={headingId}
      sx={{ height: "100%", display: "flex", flexDirection: "column" }}
    >
      <CardContent sx={{ flex: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", justifyContent: "space-between", mb: 1 }}>
          <Typography id={headingId} variant="h6" component="h3">
            {integration.label}
          </Typography>
          <StatusChip integration={integration} />
        </Stack>
        {others.length > 0 && (
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
            {t("alsoFor", { kinds: others.map((k) => t(`kinds.${k}`)).join(", ") })}
          </Typography>
        )}
        <MaskedValues integration={integration} />
        <TestOutcome integration={integration} result={props.testResult} />
      </CardContent>
      <CardActions sx={{ flexWrap: "wrap", gap: 1 }}>
        <OwnerAction reason={reason}>
          <Button
            size="small"
            variant={integration.configured ? "outlined" : "contained"}
            onClick={props.onEdit}
            disabled={reason !== null}
            aria-label={t(integration.configured ? "editNamed" : "connectNamed", { name: integration.label })}
          >
            {integration.configured ? t("edit") : t("connect")}
          </Button>
        </OwnerAction>
        {(integration.configured || integration.source === "environment") && (
          <OwnerAction reason={reason}>
            <Button
              size="small"
              onClick={props.onTest}
              disabled={props.testing || reason !== null}
              aria-label={t("testNamed", { name: integration.label })}
            >
              {props.testing ? t("testing") : t("test")}
            </Button>
          </OwnerAction>
        )}
        {integration.configured && (
          <OwnerAction reason={reason}>
            <Button
              size="small"
              color="error"
              onClick={props.onRemove}
              disabled={reason !== null}
              aria-label={t("removeNamed", { name: integration.label })}
            >
              {t("remove")}
            </Button>
          </OwnerAction>
        )}
      </CardActions>
    </Card>
  );
}
