import { z } from "zod";
import { CallEndReason, CallLogEvent, ToolCallEntry, TranscriptEntry } from "./calls.ts";
import { paged } from "./common.ts";
import { pageQuery } from "./page-query.ts";
import { LlmSettings, TtsSettings } from "./providers/index.ts";
import { timestamps } from "./resource-fields.ts";

/**
 * Test suites (issue 29): cases that call an assistant with a simulated caller who speaks, and
 * judge what the call did. A suite belongs to one assistant; a run calls it once per case (or
 * `repeat` times, to show flakiness) through the real engine on the `test` channel, each call a
 * normal call log linked to the run. docs/test-suites.md tells how a run goes, turn by turn.
 */

// ── the simulated caller ────────────────────────────────────────────────────

export const TEST_SUITE_LIMITS = {
  casesPerSuite: 50,
  scriptLines: 30,
  expectationsPerCase: 20,
  maxRepeat: 5,
  maxTurns: 30,
  /** A test call is ended by the run after this long, whatever the assistant's own limit. */
  maxCallSeconds: 600,
} as const;

/** One caller turn of a script: what they say, after how long. */
export const ScriptLine = z.object({
  /** What the caller says on this turn; empty for a turn that only presses keys or stays silent. */
  text: z.string().trim().max(1000).default(""),
  /**
   * How long the caller waits, once the assistant has finished speaking (or, on the first turn of
   * a call the caller opens, once it is connected), before this line.
   */
  wait_ms: z.number().int().min(0).max(30_000).default(400),
});
export type ScriptLine = z.infer<typeof ScriptLine>;

/** Keys the caller presses on one of its turns, before it says that turn's words. */
export const DtmfPress = z.object({
  /** The caller turn (1 is its first). */
  turn: z.number().int().min(1).max(TEST_SUITE_LIMITS.maxTurns),
  digits: z
    .string()
    .trim()
    .regex(/^[0-9*#]{1,20}$/, "Digits are 0-9, * and #, up to 20"),
});
export type DtmfPress = z.infer<typeof DtmfPress>;

/** What the caller does besides talking in turn. Turns count from 1, the caller's first. */
export const CallerBehaviours = z.object({
  /** The first turn starts while the assistant is still saying its first message (barge-in). */
  interrupts_greeting: z.boolean().default(false),
  /** On these turns the caller starts talking while the assistant is still replying. */
  speaks_over_turns: z.array(z.number().int().min(2).max(TEST_SUITE_LIMITS.maxTurns)).max(30).default([]),
  /** How far into the assistant's speech an interrupting turn starts. */
  interrupt_after_ms: z.number().int().min(0).max(10_000).default(800),
  /** A pause this long in the middle of every spoken line (tests end-of-turn); null: none. */
  pause_mid_sentence_ms: z.number().int().min(100).max(10_000).nullable().default(null),
  dtmf: z.array(DtmfPress).max(10).default([]),
  /** On these turns the caller says nothing: the assistant's silence handling is what speaks next. */
  silent_turns: z.array(z.number().int().min(1).max(TEST_SUITE_LIMITS.maxTurns)).max(30).default([]),
});
export type CallerBehaviours = z.infer<typeof CallerBehaviours>;

/** How the caller's audio reaches the assistant: a browser's 16 kHz PCM, or a phone line. */
export const LineProfile = z.enum(["browser", "phone"]);
export type LineProfile = z.infer<typeof LineProfile>;

/** The phone line's impairments (phone profile only): 8 kHz μ-law always, noise and loss on demand. */
export const PhoneLine = z.object({
  /** Background noise level in dBFS (-30 loud … -60 faint); null: a clean line. */
  noise_dbfs: z.number().min(-80).max(-20).nullable().default(null),
  /** Share of 20 ms packets lost, each way (0–30 %). */
  packet_loss_percent: z.number().min(0).max(30).default(0),
});
export type PhoneLine = z.infer<typeof PhoneLine>;

/** The caller's voice unless a case names one: the offline voice, so a case runs without keys. */
export const DEFAULT_CALLER_VOICE = {
  provider: "local",
  config: { model: "espeak-ng", voice: "en" },
} as const;

export const SimulatedCaller = z
  .object({
    /** persona: the caller's model plays `persona` turn by turn; script: `script` is said line by line. */
    mode: z.enum(["persona", "script"]),
    /** Who the caller is and what they want (the caller model's prompt); persona mode. */
    persona: z.string().trim().max(4000).default(""),
    script: z.array(ScriptLine).max(TEST_SUITE_LIMITS.scriptLines).default([]),
    /** The caller's voice; null: the offline voice (DEFAULT_CALLER_VOICE). */
    voice: TtsSettings.nullable().default(null),
    /** The caller's model in persona mode; null: the assistant's own model. */
    model: LlmSettings.nullable().default(null),
    /** The caller hangs up after this many of its turns (persona mode ends sooner when its goal is met). */
    max_turns: z.number().int().min(1).max(TEST_SUITE_LIMITS.maxTurns).default(8),
    behaviours: CallerBehaviours.default(() => CallerBehaviours.parse({})),
    profile: LineProfile.default("browser"),
    phone_line: PhoneLine.default(() => PhoneLine.parse({})),
  })
  .superRefine((caller, issues) => {
    if (caller.mode === "persona" && caller.persona === "")
      issues.addIssue({ code: "custom", path: ["persona"], message: "Describe the caller and what they want" });
    if (caller.mode === "script" && caller.script.length === 0)
      issues.addIssue({ code: "custom", path: ["script"], message: "Add at least one line for the caller" });
  });
export type SimulatedCaller = z.infer<typeof SimulatedCaller>;

// ── expectations ────────────────────────────────────────────────────────────

/** A JSON Schema object (draft 2020-12 subset: type, properties, required, enum, const, pattern, …). */
export const JsonSchemaObject = z.record(z.string(), z.unknown());

export const Expectation = z.discriminatedUnion("type", [
  /** A model reads the transcript and judges it against the rubric: pass or fail, with its reason. */
  z.object({ type: z.literal("rubric"), rubric: z.string().trim().min(1, "Write the rubric").max(4000) }),
  /** The assistant called this tool (function, tool-server tool or built-in), with arguments matching the schema. */
  z.object({
    type: z.literal("tool_called"),
    name: z.string().trim().min(1, "Name the tool").max(120),
    arguments_schema: JsonSchemaObject.nullable().default(null),
  }),
  /** The workflow collected these variables; a value given must match exactly (case-insensitive). */
  z.object({
    type: z.literal("variables_collected"),
    variables: z
      .array(z.object({ name: z.string().trim().min(1).max(120), value: z.string().max(500).nullable().default(null) }))
      .min(1, "Name at least one variable")
      .max(30),
  }),
  /** The call reached a transfer, or the assistant ended it (end-call tool or end phrase). */
  z.object({ type: z.literal("outcome"), outcome: z.enum(["transfer", "end_call"]) }),
  /** The call's end reason is one of these. */
  z.object({ type: z.literal("end_reason"), reasons: z.array(CallEndReason).min(1, "Choose at least one reason") }),
  /** The call was over within this many caller turns. */
  z.object({ type: z.literal("max_turns"), turns: z.number().int().min(1).max(100) }),
  /** p95 of the caller's wait, end of their speech → the reply's first audio, under this many ms. */
  z.object({ type: z.literal("latency"), p95_ms: z.number().int().min(1).max(60_000) }),
  /** No stretch with neither side speaking longer than this, from the first sound to the hang-up. */
  z.object({ type: z.literal("max_silence"), seconds: z.number().min(0.5).max(120) }),
]);
export type Expectation = z.infer<typeof Expectation>;
export const ExpectationType = z.enum([
  "rubric",
  "tool_called",
  "variables_collected",
  "outcome",
  "end_reason",
  "max_turns",
  "latency",
  "max_silence",
] as const satisfies readonly Expectation["type"][]);
export type ExpectationType = z.infer<typeof ExpectationType>;

// ── suites and cases ────────────────────────────────────────────────────────

export const TestRunStatus = z.enum(["queued", "running", "passed", "failed", "error", "cancelled"]);
export type TestRunStatus = z.infer<typeof TestRunStatus>;

export const TestCaseFields = z.object({
  name: z.string().trim().min(1, "Name is required").max(120),
  caller: SimulatedCaller,
  expectations: z.array(Expectation).min(1, "Add at least one expectation").max(TEST_SUITE_LIMITS.expectationsPerCase),
  /** Values for the assistant's {{placeholders}} on the test call, as a campaign contact's columns. */
  variables: z.record(z.string().max(64), z.string().max(500)).default({}),
});
export type TestCaseFields = z.infer<typeof TestCaseFields>;
export const CreateTestCaseBody = TestCaseFields;
export type CreateTestCaseBody = z.input<typeof CreateTestCaseBody>;
/** PATCH: any subset; a field left out keeps its value (no defaults filled in). */
export const UpdateTestCaseBody = z.object({
  name: TestCaseFields.shape.name.optional(),
  caller: TestCaseFields.shape.caller.optional(),
  expectations: TestCaseFields.shape.expectations.optional(),
  variables: TestCaseFields.shape.variables.unwrap().optional(),
});
export type UpdateTestCaseBody = z.input<typeof UpdateTestCaseBody>;

export const TestCase = TestCaseFields.extend({ id: z.string(), suite_id: z.string(), ...timestamps });
export type TestCase = z.infer<typeof TestCase>;

export const TestSuiteFields = z.object({
  name: z.string().trim().min(1, "Name is required").max(120),
  description: z.string().trim().max(1000).default(""),
  agent_id: z.uuid("Choose an assistant"),
  /** Calls per case in a run; more than one shows a flaky case. */
  repeat: z.number().int().min(1).max(TEST_SUITE_LIMITS.maxRepeat).default(1),
  /** The model that judges rubrics; null: the assistant's own model. */
  judge_model: LlmSettings.nullable().default(null),
});
export const CreateTestSuiteBody = TestSuiteFields;
export type CreateTestSuiteBody = z.input<typeof CreateTestSuiteBody>;
/** PATCH: any subset but the assistant; a field left out keeps its value (no defaults filled in). */
export const UpdateTestSuiteBody = z.object({
  name: TestSuiteFields.shape.name.optional(),
  description: TestSuiteFields.shape.description.unwrap().optional(),
  repeat: TestSuiteFields.shape.repeat.unwrap().optional(),
  judge_model: TestSuiteFields.shape.judge_model.unwrap().optional(),
});
export type UpdateTestSuiteBody = z.input<typeof UpdateTestSuiteBody>;

export const TestSuite = TestSuiteFields.extend({
  id: z.string(),
  agent_name: z.string(),
  case_count: z.number().int(),
  /** The suite's latest run, if any: its id, status and when it finished. */
  last_run: z.object({ id: z.string(), status: TestRunStatus, finished_at: z.string().nullable() }).nullable(),
  ...timestamps,
});
export type TestSuite = z.infer<typeof TestSuite>;

export const TestSuitesQuery = z.object({
  ...pageQuery(100, 20),
  agent_id: z.uuid().optional(),
});
export type TestSuitesQuery = z.infer<typeof TestSuitesQuery>;
export const TestSuitePage = paged(TestSuite);
export type TestSuitePage = z.infer<typeof TestSuitePage>;
export const TestCaseList = z.object({ items: z.array(TestCase) });
export type TestCaseList = z.infer<typeof TestCaseList>;

/** POST /test-suites/{id}/cases/generate: starter cases from the assistant's workflow (a case per branch) or prompt. */
export const GenerateTestCasesBody = z.object({
  source: z.enum(["workflow", "prompt"]),
  /** Prompt source: how many cases the model proposes. */
  count: z.number().int().min(1).max(10).default(3),
});
export type GenerateTestCasesBody = z.input<typeof GenerateTestCasesBody>;

// ── runs and results ────────────────────────────────────────────────────────

export const FINISHED_TEST_RUN_STATUSES = [
  "passed",
  "failed",
  "error",
  "cancelled",
] as const satisfies readonly TestRunStatus[];

/** One call of a case: waiting, calling, judged, or not run (`error`: it could not be called or judged). */
export const TestResultStatus = z.enum(["pending", "running", "passed", "failed", "error", "cancelled"]);
export type TestResultStatus = z.infer<typeof TestResultStatus>;

/** Who started a run. */
export const TestRunTrigger = z.enum(["dashboard", "api", "cli"]);
export type TestRunTrigger = z.infer<typeof TestRunTrigger>;

export const StartTestRunBody = z.object({
  /** Overrides the suite's repeat for this run. */
  repeat: z.number().int().min(1).max(TEST_SUITE_LIMITS.maxRepeat).optional(),
  /** Only these cases; all of the suite's by default. */
  case_ids: z.array(z.uuid()).max(TEST_SUITE_LIMITS.casesPerSuite).optional(),
  trigger: TestRunTrigger.optional(),
  /**
   * The assistant version to call (its number, as GET /agents/{id}/versions lists them): its
   * configuration and what it was published with. By default the version published when the run starts.
   */
  version: z.number().int().min(1).optional(),
});
export type StartTestRunBody = z.input<typeof StartTestRunBody>;

/** What an expectation's verdict rests on: the lines, tool calls and figures it read. */
export const ExpectationEvidence = z.object({
  transcript: z.array(TranscriptEntry).default([]),
  tool_calls: z.array(ToolCallEntry).default([]),
  /** Figures with their names: `voice_to_voice_ms` per turn, `p95_ms`, `longest_silence_ms`, `turns`, … */
  figures: z.record(z.string(), z.union([z.number(), z.string(), z.null()])).default({}),
});
export type ExpectationEvidence = z.infer<typeof ExpectationEvidence>;

export const ExpectationResult = z.object({
  /** The expectation's index in its case. */
  index: z.number().int(),
  type: ExpectationType,
  /** The expectation in words ("p95 latency under 1500 ms"). */
  label: z.string(),
  passed: z.boolean(),
  /** Why it passed or failed, in a sentence (the judge's own reason for a rubric). */
  reason: z.string(),
  evidence: ExpectationEvidence,
});
export type ExpectationResult = z.infer<typeof ExpectationResult>;

/** Figures of one test call. */
export const TestCallFigures = z.object({
  caller_turns: z.number().int(),
  duration_seconds: z.number(),
  /** p95 (and p50) of the engine's voice_to_voice_ms over the call's turns; null with no reply heard. */
  latency_p50_ms: z.number().nullable(),
  latency_p95_ms: z.number().nullable(),
  longest_silence_ms: z.number().nullable(),
  /** USD, the call's cost as its log has it. */
  cost: z.number(),
});
export type TestCallFigures = z.infer<typeof TestCallFigures>;

/** One turn of the simulated caller as it went; times are ms on the call's clock (its log's `at_ms`). */
export const CallerTurn = z.object({
  turn: z.number().int(),
  /** What it said ("" for a silent or keys-only turn). */
  text: z.string(),
  /** Keys it pressed on this turn, before its words. */
  dtmf: z.string(),
  silent: z.boolean(),
  /** Started while the assistant was still speaking (interrupting the greeting, speaking over). */
  interrupted: z.boolean(),
  started_at_ms: z.number(),
  speech_ended_at_ms: z.number().nullable(),
});
export type CallerTurn = z.infer<typeof CallerTurn>;

export const TestResult = z.object({
  id: z.string(),
  case_id: z.string().nullable(),
  case_name: z.string(),
  /** 1…repeat. */
  attempt: z.number().int(),
  status: TestResultStatus,
  /** The call's log (channel `test`); null before it starts or when it could not. */
  call_id: z.string().nullable(),
  /** The assistant version the call ran; null before it starts. */
  agent_version: z.number().int().nullable(),
  /** Why a result is `error` (the call could not start, the judge could not answer). */
  error: z.string().nullable(),
  expectations: z.array(ExpectationResult),
  figures: TestCallFigures.nullable(),
  /** The caller's turns: what it said, the keys it pressed, where it cut in. */
  caller_turns: z.array(CallerTurn),
  /** The call's key presses, barge-ins, transfers and faults, from its log, so the result shows how the assistant handled them. */
  call_events: z.array(CallLogEvent),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type TestResult = z.infer<typeof TestResult>;

/** A case over its attempts: `flaky` when some passed and some failed. */
export const TestCaseOutcome = z.object({
  case_id: z.string().nullable(),
  case_name: z.string(),
  status: z.enum(["pending", "running", "passed", "failed", "flaky", "error", "cancelled"]),
  passed_attempts: z.number().int(),
  attempts: z.number().int(),
});
export type TestCaseOutcome = z.infer<typeof TestCaseOutcome>;

/** This run against the suite's previous finished run. */
export const TestRunComparison = z.object({
  previous_run_id: z.string(),
  newly_failing: z.array(z.object({ case_id: z.string(), case_name: z.string() })),
  newly_passing: z.array(z.object({ case_id: z.string(), case_name: z.string() })),
  /** This run's p95 latency over all its calls minus the previous run's; null when either has none. */
  latency_p95_delta_ms: z.number().nullable(),
  /** USD per call, this run's average minus the previous run's. */
  cost_per_call_delta: z.number().nullable(),
});
export type TestRunComparison = z.infer<typeof TestRunComparison>;

export const TestRunSummary = z.object({
  id: z.string(),
  suite_id: z.string(),
  suite_name: z.string(),
  agent_id: z.string(),
  status: TestRunStatus,
  trigger: TestRunTrigger,
  repeat: z.number().int(),
  /** The assistant version the run calls; null for a run made before runs recorded their version. */
  agent_version: z.number().int().nullable(),
  /** Cases by outcome over their attempts. */
  totals: z.object({
    cases: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    flaky: z.number().int(),
    error: z.number().int(),
  }),
  latency_p95_ms: z.number().nullable(),
  cost: z.number(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type TestRunSummary = z.infer<typeof TestRunSummary>;

export const TestRun = TestRunSummary.extend({
  cases: z.array(TestCaseOutcome),
  results: z.array(TestResult),
  comparison: TestRunComparison.nullable(),
});
export type TestRun = z.infer<typeof TestRun>;

export const TestRunsQuery = z.object({ ...pageQuery(100, 20) });
export const TestRunPage = paged(TestRunSummary);
export type TestRunPage = z.infer<typeof TestRunPage>;

export const TEST_SUITE_TEXTS = {
  suiteNotFound: "Test suite not found",
  caseNotFound: "Test case not found",
  runNotFound: "Test run not found",
  noCases: "This suite has no test cases to run.",
  tooManyCases: `A suite holds at most ${TEST_SUITE_LIMITS.casesPerSuite} test cases.`,
  unknownCases: "Some of these test cases are not in this suite.",
  runFinished: "This run has already finished.",
  unknownVersion: (version: number, latest: number) =>
    `The assistant has no version ${version}: its versions are 1 to ${latest}.`,
  noWorkflow: "This assistant runs no workflow: generate cases from its prompt instead.",
  generateFailed: "The assistant's model could not propose test cases; try again or write them yourself.",
} as const;
