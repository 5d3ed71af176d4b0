import {
  CreateTestCaseBody,
  CreateTestSuiteBody,
  ErrorResponse,
  GenerateTestCasesBody,
  MessageResponse,
  StartTestRunBody,
  TestCase,
  TestCaseList,
  TestRun,
  TestRunPage,
  TestRunsQuery,
  TestSuite,
  TestSuitePage,
  TestSuitesQuery,
  UpdateTestCaseBody,
  UpdateTestSuiteBody,
} from "@parley/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/error-responses.ts";
import { messageAfter } from "../../lib/message-handler.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { addCallVersionPin } from "../assistants/version-pins.ts";
import { generateCases } from "./generate-cases.ts";
import { giveUpTestRun, runTestRunJob, TEST_RUN_JOBS_PER_PROCESS, TEST_RUN_QUEUE } from "./run-job.ts";
import { testRunVersionPin } from "./run-rows.ts";
import { cancelRun, type EnqueueRun, getRun, listRuns, startRun } from "./runs.ts";
import {
  addCases,
  createCase,
  createSuite,
  deleteCase,
  deleteSuite,
  listCases,
  listSuites,
  requireSuite,
  suiteOf,
  updateCase,
  updateSuite,
} from "./service.ts";
import { toCase } from "./views.ts";

const SuiteParams = z.object({ id: z.uuid() });
const CaseParams = z.object({ id: z.uuid(), case_id: z.uuid() });
const RunParams = z.object({ id: z.uuid(), run_id: z.uuid() });

/** Who started a run when the body does not say: a program with an API key, or a person in the dashboard. */
const triggerOf = (request: FastifyRequest) => (principalOf(request).apiKey ? "api" : "dashboard");

/**
 * Test suites (issue 29): suites of cases for an assistant, runs that call it with simulated
 * callers, and their results. Starting and cancelling a run need an API key's "calls" scope
 * (lib/scope-policy.ts). Needs registerJobs(app).
 */
export async function testSuiteRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx, jobs } = app;
  const { db } = ctx;
  const route = routeOptions(tenantRoute(app), ["test-suites"]);
  // The model that proposes cases may fail or answer nonsense: 502 then.
  const generating = routeOptions(tenantRoute(app), ["test-suites"], { ...errorResponses, 502: ErrorResponse });
  jobs.register(TEST_RUN_QUEUE, (payload, job) => runTestRunJob(ctx, app.log, payload, job), {
    concurrency: TEST_RUN_JOBS_PER_PROCESS,
    onGiveUp: (payload) => giveUpTestRun(ctx, payload),
  });
  const enqueue: EnqueueRun = (tx, payload) => jobs.enqueue(tx, TEST_RUN_QUEUE, payload);
  // A run's calls run the assistant version the run was started for, not the published one or an experiment's.
  addCallVersionPin(testRunVersionPin);

  r.get(
    "/test-suites",
    route("The workspace's test suites (of one assistant with agent_id), last changed first", {
      querystring: TestSuitesQuery,
      response: { 200: TestSuitePage },
    }),
    async (request) => listSuites(db, tenantOf(request), request.query),
  );

  r.post(
    "/test-suites",
    route("Create a test suite for an assistant", { body: CreateTestSuiteBody, response: { 201: TestSuite } }),
    async (request, reply) => {
      const tenant = tenantOf(request);
      const row = await createSuite(db, tenant, request.body);
      return reply.code(201).send(await suiteOf(db, tenant, row));
    },
  );

  r.get(
    "/test-suites/:id",
    route("One test suite, with its case count and latest run", { params: SuiteParams, response: { 200: TestSuite } }),
    async (request) => {
      const tenant = tenantOf(request);
      return suiteOf(db, tenant, await requireSuite(db, tenant, request.params.id));
    },
  );

  r.patch(
    "/test-suites/:id",
    route("Change a test suite (its assistant stays)", {
      params: SuiteParams,
      body: UpdateTestSuiteBody,
      response: { 200: TestSuite },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      return suiteOf(db, tenant, await updateSuite(db, tenant, request.params.id, request.body));
    },
  );

  r.delete(
    "/test-suites/:id",
    route("Delete a test suite and its cases (its runs' calls stay in the call logs)", {
      params: SuiteParams,
      response: { 200: MessageResponse },
    }),
    messageAfter("Test suite deleted.", (request) => deleteSuite(db, tenantOf(request), request.params.id)),
  );

  r.get(
    "/test-suites/:id/cases",
    route("A test suite's cases, oldest first", { params: SuiteParams, response: { 200: TestCaseList } }),
    async (request) => {
      const tenant = tenantOf(request);
      const suite = await requireSuite(db, tenant, request.params.id);
      return { items: (await listCases(db, tenant, suite.id)).map(toCase) };
    },
  );

  r.post(
    "/test-suites/:id/cases",
    route("Add a test case to a suite", { params: SuiteParams, body: CreateTestCaseBody, response: { 201: TestCase } }),
    async (request, reply) => {
      const row = await createCase(db, tenantOf(request), request.params.id, request.body);
      return reply.code(201).send(toCase(row));
    },
  );

  r.post(
    "/test-suites/:id/cases/generate",
    generating(
      "Add starter cases: one per branch of the assistant's published workflow, or proposed by its model from its prompt",
      { params: SuiteParams, body: GenerateTestCasesBody, response: { 201: TestCaseList } },
    ),
    async (request, reply) => {
      const tenant = tenantOf(request);
      const suite = await requireSuite(db, tenant, request.params.id);
      const cases = await generateCases(ctx, request.log, tenant, suite.agentId, request.body);
      const rows = await addCases(db, tenant, suite.id, cases);
      return reply.code(201).send({ items: rows.map(toCase) });
    },
  );

  r.patch(
    "/test-suites/:id/cases/:case_id",
    route("Change a test case (runs already made keep the case as it was)", {
      params: CaseParams,
      body: UpdateTestCaseBody,
      response: { 200: TestCase },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      await requireSuite(db, tenant, request.params.id);
      return toCase(await updateCase(db, tenant, request.params.id, request.params.case_id, request.body));
    },
  );

  r.delete(
    "/test-suites/:id/cases/:case_id",
    route("Delete a test case", { params: CaseParams, response: { 200: MessageResponse } }),
    messageAfter("Test case deleted.", async (request) => {
      const tenant = tenantOf(request);
      await requireSuite(db, tenant, request.params.id);
      await deleteCase(db, tenant, request.params.id, request.params.case_id);
    }),
  );

  r.post(
    "/test-suites/:id/runs",
    route(
      "Run a test suite: a call per case and attempt of one assistant version, on the job runner (API keys: calls scope)",
      {
        params: SuiteParams,
        // No body (Fastify reads it as null): every case, the suite's repeat.
        body: StartTestRunBody.nullish(),
        response: { 201: TestRun },
      },
    ),
    async (request, reply) => {
      const body = request.body ?? {};
      const run = await startRun(
        db,
        tenantOf(request),
        request.params.id,
        body,
        body.trigger ?? triggerOf(request),
        enqueue,
      );
      return reply.code(201).send(run);
    },
  );

  r.get(
    "/test-suites/:id/runs",
    route("A test suite's runs, newest first", {
      params: SuiteParams,
      querystring: TestRunsQuery,
      response: { 200: TestRunPage },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      const suite = await requireSuite(db, tenant, request.params.id);
      return listRuns(db, tenant, suite.id, request.query);
    },
  );

  r.get(
    "/test-suites/:id/runs/:run_id",
    route("One run: its cases, results with evidence, and the comparison with the suite's previous run", {
      params: RunParams,
      response: { 200: TestRun },
    }),
    async (request) => getRun(db, tenantOf(request), request.params.id, request.params.run_id),
  );

  r.post(
    "/test-suites/:id/runs/:run_id/cancel",
    route("Cancel a queued or running run: calls not started are cancelled, live ones ended (calls scope)", {
      params: RunParams,
      response: { 200: TestRun },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      const { id: suiteId, run_id: runId } = request.params;
      const announce = () => ctx.events.emit("test.run.completed", { workspaceId: tenant.workspaceId, runId });
      return cancelRun(db, tenant, { suiteId, runId }, ctx.now(), announce);
    },
  );
}
