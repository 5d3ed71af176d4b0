import type { FastifyInstance } from "fastify";
import { JobRunner } from "./runner.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The background job runner: modules register their queues' handlers while the app builds. */
    jobs: JobRunner;
  }
}

/** Decorates the app with a job runner that starts once every module has registered and stops on close. */
export function registerJobs(app: FastifyInstance): void {
  // PGlite admits one process per data directory: jobs left running at start are orphans.
  const runner = new JobRunner(app.ctx.db, { log: app.log, exclusive: app.ctx.config.databaseUrl === undefined });
  app.decorate("jobs", runner);
  app.addHook("onReady", async () => runner.start());
  app.addHook("onClose", async () => runner.stop());
}
