import type { FastifyInstance } from "fastify";
import { tracingOf } from "../lib/tracing/tracing.ts";
import { JobRunner } from "./runner.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The background job runner: modules register their queues' handlers while the app builds. */
    jobs: JobRunner;
  }
}

/**
 * Decorates the app with a job runner that starts once every module has registered and stops on
 * close; each job attempt is a span of the app's tracing, whose last spans are sent once the jobs
 * (the last work of a closing app) have stopped.
 */
export function registerJobs(app: FastifyInstance): void {
  const tracing = tracingOf(app.ctx.config);
  // PGlite admits one process per data directory: jobs left running at start are orphans.
  const runner = new JobRunner(app.ctx.db, {
    log: app.log,
    exclusive: app.ctx.config.databaseUrl === undefined,
    spans: tracing.jobs,
  });
  app.decorate("jobs", runner);
  app.addHook("onReady", async () => runner.start());
  // A draining node takes no more jobs: the other nodes take them (and the slices it hands back).
  app.ctx.node.onDrain(() => runner.stop());
  app.addHook("onClose", async () => {
    await runner.stop();
    await tracing.shutdown();
  });
}
