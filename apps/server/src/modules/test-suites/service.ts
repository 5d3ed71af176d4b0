import {
  type CreateTestCaseBody,
  type CreateTestSuiteBody,
  TEST_SUITE_LIMITS,
  TEST_SUITE_TEXTS,
  type TestCaseFields,
  type TestSuite,
  type TestSuiteFields,
  type TestSuitePage,
  type TestSuitesQuery,
  type UpdateTestCaseBody,
  type UpdateTestSuiteBody,
} from "@parley/contract";
import { asc, count, desc, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { pagedRows, pageOf, pageWindow } from "../../lib/paging.ts";
import { requireRow } from "../../lib/scoped-rows.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { findAssistant, requireAgent } from "../assistants/service.ts";
import { checkArgumentsSchemas } from "./arguments-schema.ts";
import { testCases, testRuns, testSuites } from "./schema.ts";
import { type LastRun, toSuite } from "./views.ts";

export type SuiteRow = typeof testSuites.$inferSelect;
export type CaseRow = typeof testCases.$inferSelect;

export async function requireSuite(db: Executor, tenant: TenantScope, id: string): Promise<SuiteRow> {
  return requireRow(db, testSuites, tenant, id, TEST_SUITE_TEXTS.suiteNotFound);
}

/** What suites (one or more) show beyond their rows: case counts, latest runs, their assistants' names. */
async function suiteFacts(db: Executor, tenant: TenantScope, suites: SuiteRow[]) {
  const ids = suites.map((s) => s.id);
  const counted = await db
    .select({ suiteId: testCases.suiteId, n: count() })
    .from(testCases)
    .where(scoped(testCases, tenant).where(inArray(testCases.suiteId, ids)))
    .groupBy(testCases.suiteId);
  const runs = await db
    .selectDistinctOn([testRuns.suiteId], {
      suiteId: testRuns.suiteId,
      id: testRuns.id,
      status: testRuns.status,
      finishedAt: testRuns.finishedAt,
    })
    .from(testRuns)
    .where(scoped(testRuns, tenant).where(inArray(testRuns.suiteId, ids)))
    .orderBy(testRuns.suiteId, desc(testRuns.createdAt), desc(testRuns.id));
  const agentIds = [...new Set(suites.map((s) => s.agentId))];
  const assistants = await Promise.all(agentIds.map((id) => findAssistant(db, tenant, id)));
  return {
    counts: new Map(counted.map((c) => [c.suiteId, Number(c.n)])),
    lastRuns: new Map<string | null, LastRun>(
      runs.map((r) => [r.suiteId, { id: r.id, status: r.status, finished_at: r.finishedAt?.toISOString() ?? null }]),
    ),
    names: new Map(agentIds.map((id, i) => [id, assistants[i]?.name ?? ""])),
  };
}

async function suitesOf(db: Executor, tenant: TenantScope, rows: SuiteRow[]): Promise<TestSuite[]> {
  if (rows.length === 0) return [];
  const { counts, lastRuns, names } = await suiteFacts(db, tenant, rows);
  return rows.map((row) =>
    toSuite(row, names.get(row.agentId) ?? "", counts.get(row.id) ?? 0, lastRuns.get(row.id) ?? null),
  );
}

export async function suiteOf(db: Executor, tenant: TenantScope, row: SuiteRow): Promise<TestSuite> {
  const [suite] = await suitesOf(db, tenant, [row]);
  return found(suite, TEST_SUITE_TEXTS.suiteNotFound);
}

/** The workspace's suites (of one assistant, if asked), last changed first. */
export async function listSuites(
  db: Executor,
  tenant: TenantScope,
  q: z.output<typeof TestSuitesQuery>,
): Promise<TestSuitePage> {
  const where = scoped(testSuites, tenant).where(q.agent_id ? eq(testSuites.agentId, q.agent_id) : undefined);
  const order = [desc(testSuites.updatedAt), desc(testSuites.id)];
  const { rows, total } = await pagedRows(db, testSuites, where, order, pageWindow(q));
  return pageOf(await suitesOf(db, tenant, rows), total, q);
}

type SuiteSettings = Omit<z.output<typeof TestSuiteFields>, "agent_id" | "name">;

const suiteColumns = (body: Partial<SuiteSettings> & { name?: string | undefined }) => ({
  ...(body.name !== undefined ? { name: body.name } : {}),
  ...(body.description !== undefined ? { description: body.description } : {}),
  ...(body.repeat !== undefined ? { repeat: body.repeat } : {}),
  ...(body.judge_model !== undefined ? { judgeModel: body.judge_model } : {}),
});

/** A new suite for an assistant of the workspace (404 "Assistant not found." otherwise). */
export async function createSuite(
  db: Executor,
  tenant: TenantScope,
  body: z.output<typeof CreateTestSuiteBody>,
): Promise<SuiteRow> {
  await requireAgent(db, tenant, body.agent_id);
  const [row] = await db
    .insert(testSuites)
    .values(scoped(testSuites, tenant).values({ agentId: body.agent_id, name: body.name, ...suiteColumns(body) }))
    .returning();
  if (!row) throw new Error("insert into test_suites returned no row");
  return row;
}

/** PATCH: the fields given change; a suite stays with its assistant. */
export async function updateSuite(
  db: Executor,
  tenant: TenantScope,
  id: string,
  body: z.output<typeof UpdateTestSuiteBody>,
): Promise<SuiteRow> {
  const [row] = await db
    .update(testSuites)
    .set({ ...suiteColumns(body), updatedAt: new Date() })
    .where(scoped(testSuites, tenant).where(eq(testSuites.id, id)))
    .returning();
  return found(row, TEST_SUITE_TEXTS.suiteNotFound);
}

/** Deletes the suite and its cases; its runs stay readable (their suite_id is set null). */
export async function deleteSuite(db: Executor, tenant: TenantScope, id: string): Promise<void> {
  const rows = await db
    .delete(testSuites)
    .where(scoped(testSuites, tenant).where(eq(testSuites.id, id)))
    .returning({ id: testSuites.id });
  found(rows[0], TEST_SUITE_TEXTS.suiteNotFound);
}

/** A suite's cases, oldest first (the order a run calls them in). */
export async function listCases(db: Executor, tenant: TenantScope, suiteId: string): Promise<CaseRow[]> {
  return db
    .select()
    .from(testCases)
    .where(scoped(testCases, tenant).where(eq(testCases.suiteId, suiteId)))
    .orderBy(asc(testCases.createdAt), asc(testCases.id));
}

export async function requireCase(db: Executor, tenant: TenantScope, suiteId: string, id: string): Promise<CaseRow> {
  const [row] = await db
    .select()
    .from(testCases)
    .where(scoped(testCases, tenant).where(eq(testCases.id, id), eq(testCases.suiteId, suiteId)));
  return found(row, TEST_SUITE_TEXTS.caseNotFound);
}

async function countCases(db: Executor, tenant: TenantScope, suiteId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(testCases)
    .where(scoped(testCases, tenant).where(eq(testCases.suiteId, suiteId)));
  return Number(row?.n ?? 0);
}

/** Marks the suite changed (a case was added, edited or removed), so lists show it first. */
async function touchSuite(db: Executor, tenant: TenantScope, suiteId: string): Promise<void> {
  await db
    .update(testSuites)
    .set({ updatedAt: new Date() })
    .where(scoped(testSuites, tenant).where(eq(testSuites.id, suiteId)));
}

/**
 * Adds cases to the suite, all or none: the suite's limit counts the cases it already holds, and
 * every `tool_called` schema must compile. Inserted one by one so their creation order is theirs.
 */
export async function addCases(
  db: Executor,
  tenant: TenantScope,
  suiteId: string,
  cases: z.output<typeof TestCaseFields>[],
): Promise<CaseRow[]> {
  for (const fields of cases) checkArgumentsSchemas(fields.expectations);
  return db.transaction(async (tx) => {
    await requireSuite(tx, tenant, suiteId);
    if ((await countCases(tx, tenant, suiteId)) + cases.length > TEST_SUITE_LIMITS.casesPerSuite)
      throw new AppError("validation", TEST_SUITE_TEXTS.tooManyCases);
    const rows: CaseRow[] = [];
    const base = Date.now();
    for (const [i, fields] of cases.entries()) {
      const [row] = await tx
        .insert(testCases)
        .values(
          scoped(testCases, tenant).values({
            suiteId,
            name: fields.name,
            caller: fields.caller,
            expectations: fields.expectations,
            variables: fields.variables,
            // Distinct times keep the cases of one request in the order given.
            createdAt: new Date(base + i),
            updatedAt: new Date(base + i),
          }),
        )
        .returning();
      if (!row) throw new Error("insert into test_cases returned no row");
      rows.push(row);
    }
    await touchSuite(tx, tenant, suiteId);
    return rows;
  });
}

export async function createCase(
  db: Executor,
  tenant: TenantScope,
  suiteId: string,
  body: z.output<typeof CreateTestCaseBody>,
): Promise<CaseRow> {
  const [row] = await addCases(db, tenant, suiteId, [body]);
  return found(row, TEST_SUITE_TEXTS.caseNotFound);
}

export async function updateCase(
  db: Executor,
  tenant: TenantScope,
  suiteId: string,
  id: string,
  body: z.output<typeof UpdateTestCaseBody>,
): Promise<CaseRow> {
  checkArgumentsSchemas(body.expectations);
  const [row] = await db
    .update(testCases)
    .set({
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.caller !== undefined ? { caller: body.caller } : {}),
      ...(body.expectations !== undefined ? { expectations: body.expectations } : {}),
      ...(body.variables !== undefined ? { variables: body.variables } : {}),
      updatedAt: new Date(),
    })
    .where(scoped(testCases, tenant).where(eq(testCases.id, id), eq(testCases.suiteId, suiteId)))
    .returning();
  const updated = found(row, TEST_SUITE_TEXTS.caseNotFound);
  await touchSuite(db, tenant, suiteId);
  return updated;
}

export async function deleteCase(db: Executor, tenant: TenantScope, suiteId: string, id: string): Promise<void> {
  const rows = await db
    .delete(testCases)
    .where(scoped(testCases, tenant).where(eq(testCases.id, id), eq(testCases.suiteId, suiteId)))
    .returning({ id: testCases.id });
  found(rows[0], TEST_SUITE_TEXTS.caseNotFound);
  await touchSuite(db, tenant, suiteId);
}
