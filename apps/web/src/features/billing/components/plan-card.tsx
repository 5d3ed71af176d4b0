import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { BillingPlan, PaymentStatus } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth-context.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { useOpenPayments } from "../api/billing-api.ts";
import { useFormatters } from "./formatters.ts";

function LimitBar({
  label,
  used,
  limit,
  format,
}: {
  label: string;
  used: number;
  limit: number;
  format: (n: number) => string;
}) {
  const { t } = useTranslation(["billing", "translation"], { nsMode: "fallback" });
  const share = limit > 0 ? Math.min(100, (used / limit) * 100) : 100;
  return (
    <Box>
      <Stack direction="row" sx={{ justifyContent: "space-between" }}>
        <Typography variant="body2">{label}</Typography>
        <Typography variant="body2" color="text.secondary">
          {t("usedOf", { used: format(used), limit: format(limit) })}
        </Typography>
      </Stack>
      <LinearProgress
        variant="determinate"
        value={share}
        color={share >= 100 ? "error" : share >= 80 ? "warning" : "primary"}
        aria-label={label}
        aria-valuetext={t("usedOf", { used: format(used), limit: format(limit) })}
        sx={{ height: 8, borderRadius: 1, mt: 0.5 }}
      />
    </Box>
  );
}

function PaymentButtons({ payments }: { payments: PaymentStatus | undefined }) {
  const { t } = useTranslation(["billing", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const open = useOpenPayments();
  const owner = useAuth().workspace?.role === "owner";
  if (!payments?.enabled) return null;
  const go = (where: "checkout" | "portal") =>
    open.mutate(where, {
      onError: notice.failureWith(t("paymentsFailed")),
    });
  return (
    <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: "wrap" }}>
      {payments.can_subscribe && (
        <Button variant="contained" disabled={!owner || open.isPending} onClick={() => go("checkout")}>
          {t("subscribe")}
        </Button>
      )}
      <Button variant="outlined" disabled={!owner || open.isPending} onClick={() => go("portal")}>
        {t("portal")}
      </Button>
      {!owner && (
        <Typography variant="body2" color="text.secondary" sx={{ alignSelf: "center" }}>
          {t("ownersOnly")}
        </Typography>
      )}
    </Stack>
  );
}

/**
 * The plan behind the workspace: its tier and price, and how much of each limit this month used. The
 * minutes are the plan's, over every workspace of its owner; when others used some, this workspace's
 * share (`workspaceMinutes`, the page's own figure) is said beside them, so the two figures agree.
 */
export function PlanCard({
  plan,
  workspaceMinutes,
  payments,
}: {
  plan: BillingPlan;
  workspaceMinutes: number;
  payments: PaymentStatus | undefined;
}) {
  const { t } = useTranslation(["billing", "translation"], { nsMode: "fallback" });
  const f = useFormatters();
  const name = plan.tier_name ?? (plan.source === "enterprise" ? t("enterprise") : t("noPlan"));
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="overline" color="text.secondary">
          {t("plan")}
        </Typography>
        <Typography variant="h5" component="h2" data-testid="plan-name">
          {name}
        </Typography>
        {plan.monthly_price !== null && (
          <Typography color="text.secondary">{t("perMonth", { price: f.money(plan.monthly_price) })}</Typography>
        )}
        {plan.source === "enterprise" && plan.tier_name && (
          <Typography variant="body2" color="text.secondary">
            {t("enterpriseOverrides")}
          </Typography>
        )}
        {plan.limits ? (
          <Stack spacing={2} sx={{ mt: 2 }}>
            <LimitBar
              label={t("limits.minutes")}
              used={plan.minutes_used}
              limit={plan.limits.minutes_per_month}
              format={f.minutes}
            />
            {f.minutes(plan.minutes_used) !== f.minutes(workspaceMinutes) && (
              <Typography variant="body2" color="text.secondary" data-testid="plan-workspace-minutes">
                {t("limits.thisWorkspace", { minutes: f.minutes(workspaceMinutes) })}
              </Typography>
            )}
            <LimitBar
              label={t("limits.assistants")}
              used={plan.assistants_used}
              limit={plan.limits.max_assistants}
              format={f.count}
            />
            <LimitBar
              label={t("limits.workspaces")}
              used={plan.workspaces_used}
              limit={plan.limits.max_workspaces}
              format={f.count}
            />
            <Typography variant="body2">{t("limits.concurrent", { count: plan.limits.concurrent_calls })}</Typography>
          </Stack>
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t("unlimited", { minutes: f.minutes(plan.minutes_used) })}
          </Typography>
        )}
        <PaymentButtons payments={payments} />
      </CardContent>
    </Card>
  );
}
