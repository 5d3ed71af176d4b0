import type {
  CallerTurn,
  CallLogEvent,
  Expectation,
  ExpectationResult,
  LlmSettings,
  SimulatedCaller,
  TestCallFigures,
  TestResultStatus,
  TestRunStatus,
  TestRunTrigger,
} from "@parley/contract";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamps } from "../../lib/table-columns.ts";
import { agents } from "../assistants/schema.ts";
import { workspaceRecordKey } from "../workspaces/owned-columns.ts";

/** A test suite: cases for one assistant (deleting the assistant deletes its suites). */
export const testSuites = pgTable(
  "test_suites",
  {
    ...workspaceRecordKey(),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    repeat: integer("repeat").notNull().default(1),
    judgeModel: jsonb("judge_model").$type<LlmSettings>(),
    ...timestamps(),
  },
  (t) => [index("test_suites_list_idx").on(t.workspaceId, t.updatedAt.desc())],
);

/** One case of a suite: the simulated caller and what the call must show. */
export const testCases = pgTable(
  "test_cases",
  {
    ...workspaceRecordKey(),
    suiteId: uuid("suite_id")
      .notNull()
      .references(() => testSuites.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    caller: jsonb("caller").$type<SimulatedCaller>().notNull(),
    expectations: jsonb("expectations").$type<Expectation[]>().notNull(),
    variables: jsonb("variables").$type<Record<string, string>>().notNull().default({}),
    ...timestamps(),
  },
  (t) => [index("test_cases_suite_idx").on(t.suiteId, t.createdAt)],
);

/**
 * One run of a suite. The job that runs it (queue `test-runs`) finds it by id; `suite_name` is
 * copied so a run reads well after its suite is renamed or deleted.
 */
export const testRuns = pgTable(
  "test_runs",
  {
    ...workspaceRecordKey(),
    suiteId: uuid("suite_id").references(() => testSuites.id, { onDelete: "set null" }),
    suiteName: text("suite_name").notNull(),
    agentId: uuid("agent_id").notNull(),
    status: text("status").$type<TestRunStatus>().notNull().default("queued"),
    trigger: text("trigger").$type<TestRunTrigger>().notNull(),
    repeat: integer("repeat").notNull(),
    /**
     * The assistant version every call of the run runs (issue 30): the one asked for, else the one
     * published when the run started. Null for runs made before runs chose a version.
     */
    agentVersion: integer("agent_version"),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [index("test_runs_suite_idx").on(t.workspaceId, t.suiteId, t.createdAt.desc())],
);

/**
 * One call of one case in a run (a case runs `repeat` times). The case's caller and expectations
 * are copied in when the run starts, so editing a case never changes a run already made.
 */
export const testResults = pgTable(
  "test_results",
  {
    ...workspaceRecordKey(),
    runId: uuid("run_id")
      .notNull()
      .references(() => testRuns.id, { onDelete: "cascade" }),
    caseId: uuid("case_id").references(() => testCases.id, { onDelete: "set null" }),
    caseName: text("case_name").notNull(),
    attempt: integer("attempt").notNull(),
    caller: jsonb("caller").$type<SimulatedCaller>().notNull(),
    expectations: jsonb("expectations").$type<Expectation[]>().notNull(),
    variables: jsonb("variables").$type<Record<string, string>>().notNull().default({}),
    status: text("status").$type<TestResultStatus>().notNull().default("pending"),
    callId: uuid("call_id"),
    /** The assistant version its call ran, written when the call starts. */
    agentVersion: integer("agent_version"),
    error: text("error"),
    verdicts: jsonb("verdicts").$type<ExpectationResult[]>().notNull().default([]),
    figures: jsonb("figures").$type<TestCallFigures>(),
    /** The simulated caller's turns, and the call's key presses, barge-ins and transfers, as the result shows them. */
    callerTurns: jsonb("caller_turns").$type<CallerTurn[]>().notNull().default([]),
    callEvents: jsonb("call_events").$type<CallLogEvent[]>().notNull().default([]),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("test_results_run_idx").on(t.runId, t.createdAt)],
);
