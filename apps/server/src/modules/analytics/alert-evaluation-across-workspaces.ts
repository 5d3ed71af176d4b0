import { and, eq, inArray, ne } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import { enqueueJob } from "../../jobs/runner.ts";
import { jobs as jobTable } from "../../jobs/schema.ts";
import { scoped } from "../../lib/tenant-scope.ts";
import { measureRule } from "./alert-measure.ts";
import { toAlertEvent } from "./alert-rules.ts";
import { type AlertRuleRow, alertEvents, alertRules } from "./schema.ts";

export const ALERTS_QUEUE = "analytics.alerts";
/** How often the rules are judged. */
export const ALERT_EVALUATION_EVERY_MS = 60_000;

/**
 * Judges every workspace's enabled alert rules. It reads the rules across workspaces on purpose: the
 * job acts for none of them; each rule is then measured and updated with its own workspace as the
 * tenant. A rule fires once per breach — the switch to `firing` is one conditional update, so two
 * processes judging at once fire it once — and may fire again only after a judgement without breach.
 */
export async function evaluateAlerts(ctx: AppContext, log: FastifyBaseLogger, send: SendAlertWebhook): Promise<void> {
  const rules = await ctx.db.select().from(alertRules).where(eq(alertRules.enabled, true));
  for (const rule of rules) {
    try {
      await evaluateRule(ctx, log, rule, send);
    } catch (err) {
      log.error({ err, workspaceId: rule.workspaceId, ruleId: rule.id }, "could not evaluate an alert rule");
    }
  }
}

/**
 * Queues the signed `alert.triggered` webhook to the workspace's subscribed endpoints (the webhooks
 * module's fan-out, handed in by app.ts: analytics may not import it without a module cycle).
 */
export type SendAlertWebhook = (
  ctx: AppContext,
  workspaceId: string,
  data: Record<string, unknown>,
) => Promise<unknown>;

async function evaluateRule(ctx: AppContext, log: FastifyBaseLogger, rule: AlertRuleRow, send: SendAlertWebhook) {
  const now = ctx.now();
  const tenant = { workspaceId: rule.workspaceId };
  const measured = await measureRule(ctx.db, rule, now);
  const where = (firing: boolean) =>
    scoped(alertRules, tenant).where(eq(alertRules.id, rule.id), eq(alertRules.firing, firing));
  const noted = { lastValue: measured?.value ?? null, lastEvaluatedAt: now };
  if (!measured || measured.breach === rule.firing) {
    await ctx.db
      .update(alertRules)
      .set(noted)
      .where(scoped(alertRules, tenant).where(eq(alertRules.id, rule.id)));
    return;
  }
  const [changed] = await ctx.db
    .update(alertRules)
    .set({ ...noted, firing: measured.breach })
    .where(where(!measured.breach))
    .returning({ id: alertRules.id });
  if (!changed) return;
  const emails = measured.breach ? rule.emails : [];
  const emailed = await sendEmails(ctx, log, rule, emails, measured.message);
  const [event] = await ctx.db
    .insert(alertEvents)
    .values(
      scoped(alertEvents, tenant).values({
        ruleId: rule.id,
        ruleName: rule.name,
        kind: rule.kind,
        state: measured.breach ? ("triggered" as const) : ("recovered" as const),
        value: measured.value,
        threshold: rule.threshold,
        message: measured.message,
        emailed,
      }),
    )
    .returning();
  if (!event || !measured.breach) return;
  log.warn({ workspaceId: rule.workspaceId, ruleId: rule.id, value: measured.value }, "an alert rule fired");
  await send(ctx, rule.workspaceId, { alert: toAlertEvent(event), assistant_id: rule.agentId });
}

/** Emails each address; one that fails is logged and the others still go. Returns how many went. */
async function sendEmails(
  ctx: AppContext,
  log: FastifyBaseLogger,
  rule: AlertRuleRow,
  emails: string[],
  message: string,
): Promise<number> {
  let sent = 0;
  for (const to of emails) {
    try {
      await ctx.mailer.send({
        to,
        subject: `Parley alert: ${rule.name}`,
        text: `${message}\n\nThis alert fires once per breach; it can fire again after the figure recovers.\n${new URL("/analytics", ctx.config.publicUrl).toString()}`,
      });
      sent += 1;
    } catch (err) {
      log.error({ err, workspaceId: rule.workspaceId, ruleId: rule.id }, "could not email an alert");
    }
  }
  return sent;
}

/**
 * The evaluation job: one recurring job (it asks to run again in a minute). Started once per
 * database — a process that finds another one queued or running leaves it be.
 */
export async function scheduleAlertEvaluation(
  ctx: AppContext,
  jobs: JobRunner,
  log: FastifyBaseLogger,
  send: SendAlertWebhook,
) {
  jobs.register(ALERTS_QUEUE, async (_payload, job) => {
    const [other] = await ctx.db
      .select({ id: jobTable.id })
      .from(jobTable)
      .where(
        and(eq(jobTable.queue, ALERTS_QUEUE), inArray(jobTable.status, ["queued", "running"]), ne(jobTable.id, job.id)),
      )
      .limit(1);
    // Two processes starting together may each have queued one: the spare finishes for good.
    if (other && other.id < job.id) return;
    await evaluateAlerts(ctx, log, send);
    return { again: new Date(ctx.now().getTime() + ALERT_EVALUATION_EVERY_MS) };
  });
  const [existing] = await ctx.db
    .select({ id: jobTable.id })
    .from(jobTable)
    .where(and(eq(jobTable.queue, ALERTS_QUEUE), inArray(jobTable.status, ["queued", "running"])))
    .limit(1);
  if (!existing) await enqueueJob(ctx.db, ALERTS_QUEUE, {}, { maxAttempts: 1_000_000 });
}
