import { mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../src/jobs/schema.ts";
import { createRecordingFile, inMemoryData, openRecordingFile } from "../src/modules/call-logs/recording-files.ts";
import { createCallLog, finishCallLog } from "../src/modules/call-logs/service.ts";
import { ERASE_FILES_QUEUE } from "../src/modules/privacy/recording-removal.ts";
import { call, signedInUser, type TestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { createLoggedTestApp, type LogLines } from "./support/logged-app.ts";
import { until } from "./support/until.ts";

/**
 * Issue 34 item 4: an erased person's recording file that cannot be removed (here: a directory
 * stands where the file was) is logged at warn with its path and the workspace — never the number —
 * and a job tries it again until it is gone; the erasure itself has answered and is audited.
 */

const NUMBER = "+14155550123";
let t: TestApp & { log: LogLines };

beforeAll(async () => {
  t = await createLoggedTestApp();
});

afterAll(async () => {
  await t?.close();
});

const absolute = (relative: string) =>
  path.resolve(inMemoryData(t.config.dataDir) ? path.join(tmpdir(), "parley-memory") : t.config.dataDir, relative);

describe("an erased person's recording file that cannot be removed", () => {
  it("is logged at warn with its path and removed by a retrying job once it can be", async () => {
    const owner = await signedInUser(t);
    const agentId = await createAssistant(t, owner.token, {});
    const tenant = { workspaceId: owner.workspaceId };
    const log = await createCallLog(t.ctx.db, tenant, {
      agentId,
      agentName: "Front desk",
      channel: "phone",
      direction: "inbound",
      fromNumber: NUMBER,
      toNumber: "+14155559999",
    });
    const recording = await createRecordingFile(t.config.dataDir, owner.workspaceId, log.id);
    recording.sink.write(new Int16Array(16_000).fill(700));
    await recording.close();
    await finishCallLog(t.ctx.db, tenant, log.id, {
      status: "completed",
      endReason: "caller_hangup",
      endedAt: new Date(),
      durationSeconds: 10,
      cost: 0,
      costBreakdown: null,
      transcript: [],
      toolCalls: [],
      turnMetrics: [],
      events: [],
      recordingPath: recording.path,
    });
    // A directory with something in it where the file was: removing the "file" fails.
    const where = absolute(recording.path);
    await rm(where, { force: true });
    await mkdir(where, { recursive: true });
    await writeFile(path.join(where, "held"), "busy");

    const res = await call(t, "POST", "/api/v1/privacy/subjects/erase", {
      token: owner.token,
      body: { phone: NUMBER, confirm: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ calls: 1, recordings: 1 });

    const warning = t.log
      .entries()
      .find((e) => e.msg === "could not remove an erased person's recording file; it is tried again");
    expect(warning).toMatchObject({ level: 40, workspaceId: owner.workspaceId, path: recording.path });
    expect(t.log.lines.join("\n")).not.toContain(NUMBER);
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.queue, ERASE_FILES_QUEUE));
    expect(job).toMatchObject({
      status: "queued",
      payload: { workspaceId: owner.workspaceId, paths: [recording.path] },
    });

    // Whatever held it lets go; the job, brought forward, removes it.
    await rm(path.join(where, "held"));
    await rm(where, { recursive: true });
    await writeFile(where, "left-over audio");
    await t.ctx.db
      .update(jobs)
      .set({ runAt: new Date() })
      .where(eq(jobs.id, job?.id ?? ""));
    t.app.jobs.wake();
    await until(
      async () =>
        (
          await t.ctx.db
            .select()
            .from(jobs)
            .where(eq(jobs.id, job?.id ?? ""))
        )[0]?.status,
      (status) => status === "done",
      "the erase-recordings job to finish",
    );
    expect(await openRecordingFile(t.config.dataDir, recording.path)).toBeNull();
  });
});
