import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { enqueueJob, type JobRunner } from "../../jobs/runner.ts";
import { removeRecordingFile } from "../call-logs/recording-files.ts";

/**
 * Removing an erased person's recording files. The erasure's transaction has already cleared the
 * call logs' pointers, so a file that cannot be removed now (a busy or read-only disk) is not left
 * to a later retention pass: a job tries it again with the runner's backoff (5 s, 25 s, 125 s …).
 */

export const ERASE_FILES_QUEUE = "privacy.erase-recordings";
/** Tries over about a day before the job fails (and stays in the jobs table for the operator). */
const ATTEMPTS = 8;
const FIRST_RETRY_MS = 30_000;

const Payload = z.object({ workspaceId: z.string(), paths: z.array(z.string()) });

/** The paths (relative to DATA_DIR) that could not be removed; each failure is logged at warn. */
async function removeFiles(ctx: AppContext, log: FastifyBaseLogger, workspaceId: string, paths: string[]) {
  const left: string[] = [];
  for (const path of paths) {
    try {
      await removeRecordingFile(ctx.config.dataDir, path);
    } catch (err) {
      log.warn({ err, workspaceId, path }, "could not remove an erased person's recording file; it is tried again");
      left.push(path);
    }
  }
  return left;
}

export function registerRecordingRemoval(ctx: AppContext, jobs: JobRunner, log: FastifyBaseLogger): void {
  jobs.register(ERASE_FILES_QUEUE, async (payload) => {
    const { workspaceId, paths } = Payload.parse(payload);
    const left = await removeFiles(ctx, log, workspaceId, paths);
    // Throwing has the runner retry with backoff; only the files still there are kept.
    if (left.length > 0) throw new Error(`${left.length} erased recording file(s) could not be removed yet`);
  });
}

/** Removes the files now; what is left goes to the retrying job (a failure to queue it is logged at error). */
export async function removeErasedRecordings(
  ctx: AppContext,
  jobs: JobRunner,
  log: FastifyBaseLogger,
  workspaceId: string,
  paths: string[],
): Promise<void> {
  const left = await removeFiles(ctx, log, workspaceId, paths);
  if (left.length === 0) return;
  try {
    // Not at once: whatever kept the file a moment ago likely still does.
    const runAt = new Date(ctx.now().getTime() + FIRST_RETRY_MS);
    await enqueueJob(ctx.db, ERASE_FILES_QUEUE, { workspaceId, paths: left }, { maxAttempts: ATTEMPTS, runAt });
    jobs.wakeAt(runAt);
  } catch (err) {
    log.error({ err, workspaceId, paths: left }, "could not queue the removal of an erased person's recording files");
  }
}
