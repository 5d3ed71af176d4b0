import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { JobRunner } from "../src/jobs/runner.ts";
import { jobs } from "../src/jobs/schema.ts";
import type { JobAttempt, JobOutcome } from "../src/lib/tracing/tracing-types.ts";
import { useTestApp } from "./harness.ts";
import { until } from "./support/until.ts";

/**
 * A failed job is an operator's business: the attempt that will be retried logs a warning, the one
 * given up an error, each with the job's name, id, attempt, workspace and a redacted message; each
 * attempt's span ends with how it went.
 */

const t = useTestApp();

type Line = { level: "info" | "warn" | "error"; fields: Record<string, unknown>; message: string };

function capturingLog() {
  const lines: Line[] = [];
  const at = (level: Line["level"]) => (fields: object, message: string) =>
    void lines.push({ level, fields: fields as Record<string, unknown>, message });
  return { lines, log: { info: at("info"), warn: at("warn"), error: at("error") } };
}

describe("a failing job", () => {
  it("warns while it will be retried, errs when given up, and ends each attempt's span with its outcome", async () => {
    const { lines, log } = capturingLog();
    const attempts: { job: JobAttempt; outcome?: JobOutcome }[] = [];
    const spans = {
      startJob(job: JobAttempt) {
        const entry: { job: JobAttempt; outcome?: JobOutcome } = { job };
        attempts.push(entry);
        return {
          end: (outcome: JobOutcome) => {
            entry.outcome = outcome;
          },
        };
      },
    };
    const runner = new JobRunner(t.ctx.db, { log, spans, pollMs: 50 });
    const workspaceId = "0b8f3c1e-2d4a-4b6c-8e9f-0a1b2c3d4e5f";
    runner.register("tracing.flaky", async () => {
      throw new Error("the CRM said no (Authorization: Bearer abcdefghijklmnop1234)");
    });
    await runner.start();
    try {
      const job = await runner.enqueue(t.ctx.db, "tracing.flaky", { workspaceId }, { maxAttempts: 2 });
      // The second attempt comes after the 5 s backoff.
      await until(
        async () => (await t.ctx.db.select().from(jobs).where(eq(jobs.id, job.id)))[0]?.status,
        (status) => status === "failed",
        "the job to be given up",
        90_000,
      );
      const failures = lines.filter((line) => line.level !== "info");
      expect(failures.map((line) => [line.level, line.message, line.fields.attempt])).toEqual([
        ["warn", "job failed, will retry", 1],
        ["error", "job failed and was given up", 2],
      ]);
      for (const line of failures) {
        expect(line.fields).toMatchObject({ job: "tracing.flaky", jobId: job.id, workspaceId, maxAttempts: 2 });
        expect(line.fields.error).toContain("the CRM said no");
        expect(line.fields.error).not.toContain("abcdefghijklmnop1234");
      }
      await until(
        async () => attempts.map((a) => a.outcome?.outcome),
        (outcomes) => outcomes.length === 2 && outcomes.every(Boolean),
        "both attempts' spans to end",
      );
      expect(attempts.map((a) => [a.job.id, a.job.attempt, a.outcome?.outcome])).toEqual([
        [job.id, 1, "retry"],
        [job.id, 2, "failed"],
      ]);
    } finally {
      await runner.stop();
    }
  }, 120_000);
});
