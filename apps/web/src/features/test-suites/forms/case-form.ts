import {
  type CallEndReason,
  CreateTestCaseBody,
  DEFAULT_CALLER_VOICE,
  type Expectation,
  type ExpectationType,
  type LineProfile,
  type TestCase,
  TTS_DESCRIPTORS,
  type TtsSettings,
} from "@parley/contract";

/**
 * The case editor's values: what the fields hold as typed (numbers as text, lists of turns as
 * "2, 4", a tool's schema as JSON text, variables as rows), shaped like the API's body so that a
 * complaint about `caller.script.0.text` — the browser's or the server's — lands on that field.
 */
export interface CaseForm {
  name: string;
  caller: {
    mode: "persona" | "script";
    persona: string;
    script: { text: string; wait_ms: string }[];
    /** DEFAULT_VOICE, an offline voice's id, or KEPT_VOICE. */
    voice: string;
    max_turns: string;
    profile: LineProfile;
    phone_line: { noise_dbfs: string; packet_loss_percent: string };
    behaviours: {
      interrupts_greeting: boolean;
      interrupt_after_ms: string;
      speaks_over_turns: string;
      pause_mid_sentence_ms: string;
      dtmf: { turn: string; digits: string }[];
      silent_turns: string;
    };
  };
  expectations: ExpectationForm[];
  variables: { key: string; value: string }[];
}

export type ExpectationForm =
  | { type: "rubric"; rubric: string }
  | { type: "tool_called"; name: string; arguments_schema: string }
  | { type: "variables_collected"; variables: { name: string; value: string }[] }
  | { type: "outcome"; outcome: "transfer" | "end_call" }
  | { type: "end_reason"; reasons: CallEndReason[] }
  | { type: "max_turns"; turns: string }
  | { type: "latency"; p95_ms: string }
  | { type: "max_silence"; seconds: string };

/** The voice field's value for the caller's default voice (a select shows no label for ""). */
export const DEFAULT_VOICE = "default";

/** The voice field's value for a voice set through the API that this editor does not offer: kept as it is. */
export const KEPT_VOICE = "kept";

const LOCAL_TTS = TTS_DESCRIPTORS.find((descriptor) => descriptor.id === DEFAULT_CALLER_VOICE.provider);
/** The offline voices a caller can speak with, no key needed. */
export const OFFLINE_VOICES = LOCAL_TTS?.tts.voices ?? [];

/** A new expectation of `type`, as its fields start. */
export function blankExpectation(type: ExpectationType): ExpectationForm {
  switch (type) {
    case "rubric":
      return { type, rubric: "" };
    case "tool_called":
      return { type, name: "", arguments_schema: "" };
    case "variables_collected":
      return { type, variables: [{ name: "", value: "" }] };
    case "outcome":
      return { type, outcome: "end_call" };
    case "end_reason":
      return { type, reasons: ["caller_hangup"] };
    case "max_turns":
      return { type, turns: "8" };
    case "latency":
      return { type, p95_ms: "1500" };
    case "max_silence":
      return { type, seconds: "10" };
  }
}

const text = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));
const turnsText = (turns: readonly number[]) => turns.join(", ");

function expectationForm(expectation: Expectation): ExpectationForm {
  switch (expectation.type) {
    case "rubric":
    case "outcome":
      return expectation;
    case "tool_called":
      return {
        type: "tool_called",
        name: expectation.name,
        arguments_schema: expectation.arguments_schema ? JSON.stringify(expectation.arguments_schema, null, 2) : "",
      };
    case "variables_collected":
      return {
        type: "variables_collected",
        variables: expectation.variables.map((v) => ({ name: v.name, value: v.value ?? "" })),
      };
    case "end_reason":
      return { type: "end_reason", reasons: [...expectation.reasons] };
    case "max_turns":
      return { type: "max_turns", turns: String(expectation.turns) };
    case "latency":
      return { type: "latency", p95_ms: String(expectation.p95_ms) };
    case "max_silence":
      return { type: "max_silence", seconds: String(expectation.seconds) };
  }
}

function voiceChoice(voice: TtsSettings | null): string {
  if (!voice) return DEFAULT_VOICE;
  const id = voice.provider === DEFAULT_CALLER_VOICE.provider ? voice.config.voice : null;
  return id && OFFLINE_VOICES.some((v) => v.id === id) ? id : KEPT_VOICE;
}

/** The editor's values for a case, or for a new one (a one-line script that expects the caller to hang up). */
export function caseFormOf(testCase: TestCase | null): CaseForm {
  if (!testCase) {
    return caseFormOf({
      id: "",
      suite_id: "",
      created_at: "",
      updated_at: "",
      name: "",
      caller: {
        mode: "script",
        persona: "",
        script: [{ text: "", wait_ms: 400 }],
        voice: null,
        model: null,
        max_turns: 8,
        profile: "browser",
        phone_line: { noise_dbfs: null, packet_loss_percent: 0 },
        behaviours: {
          interrupts_greeting: false,
          speaks_over_turns: [],
          interrupt_after_ms: 800,
          pause_mid_sentence_ms: null,
          dtmf: [],
          silent_turns: [],
        },
      },
      expectations: [{ type: "end_reason", reasons: ["caller_hangup"] }],
      variables: {},
    });
  }
  const { caller } = testCase;
  return {
    name: testCase.name,
    caller: {
      mode: caller.mode,
      persona: caller.persona,
      script: caller.script.map((line) => ({ text: line.text, wait_ms: String(line.wait_ms) })),
      voice: voiceChoice(caller.voice),
      max_turns: String(caller.max_turns),
      profile: caller.profile,
      phone_line: {
        noise_dbfs: text(caller.phone_line.noise_dbfs),
        packet_loss_percent: text(caller.phone_line.packet_loss_percent),
      },
      behaviours: {
        interrupts_greeting: caller.behaviours.interrupts_greeting,
        interrupt_after_ms: String(caller.behaviours.interrupt_after_ms),
        speaks_over_turns: turnsText(caller.behaviours.speaks_over_turns),
        pause_mid_sentence_ms: text(caller.behaviours.pause_mid_sentence_ms),
        dtmf: caller.behaviours.dtmf.map((press) => ({ turn: String(press.turn), digits: press.digits })),
        silent_turns: turnsText(caller.behaviours.silent_turns),
      },
    },
    expectations: testCase.expectations.map(expectationForm),
    variables: Object.entries(testCase.variables).map(([key, value]) => ({ key, value })),
  };
}

/** A complaint about one field, at the form's path ("caller.script.0.text"). */
export interface FieldProblem {
  path: string;
  message: string;
}

/** What the browser says before the schema does: text that is no number, a list that is no list, JSON that is no JSON. */
export const FORM_TEXTS = {
  number: "Enter a number",
  turns: "List turn numbers separated by commas, such as 2, 4",
  json: (reason: string) => `This is not valid JSON: ${reason}`,
  jsonObject: "The schema must be a JSON object",
} as const;

type Read = (path: string, raw: string, optional?: boolean) => number | null | undefined;

/**
 * The body a form's values stand for, or the problems that keep it from being one: each problem
 * at the form's own path. `original` keeps what this editor does not show (a caller model, a
 * voice of another provider).
 */
export function caseBodyOf(
  form: CaseForm,
  original: TestCase | null,
): { body: CreateTestCaseBody; problems: [] } | { body: null; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  // A blank optional number is null; a blank required one is left to the schema (its "required" message).
  const num: Read = (path, raw, optional = false) => {
    const trimmed = raw.trim();
    if (trimmed === "") return optional ? null : undefined;
    const value = Number(trimmed);
    if (Number.isFinite(value)) return value;
    problems.push({ path, message: FORM_TEXTS.number });
    return undefined;
  };
  const turns = (path: string, raw: string) => {
    const parts = raw.split(/[,\s]+/).filter(Boolean);
    if (parts.some((part) => !/^\d+$/.test(part))) problems.push({ path, message: FORM_TEXTS.turns });
    return parts.filter((part) => /^\d+$/.test(part)).map(Number);
  };
  const { caller } = form;
  const behaviours = caller.behaviours;
  const body = {
    name: form.name,
    caller: {
      mode: caller.mode,
      persona: caller.persona,
      script: caller.script.map((line, i) => ({
        text: line.text,
        wait_ms: num(`caller.script.${i}.wait_ms`, line.wait_ms),
      })),
      voice: voiceSettingsOf(caller.voice, original),
      model: original?.caller.model ?? null,
      max_turns: num("caller.max_turns", caller.max_turns),
      profile: caller.profile,
      phone_line: {
        noise_dbfs: num("caller.phone_line.noise_dbfs", caller.phone_line.noise_dbfs, true),
        packet_loss_percent: num("caller.phone_line.packet_loss_percent", caller.phone_line.packet_loss_percent) ?? 0,
      },
      behaviours: {
        interrupts_greeting: behaviours.interrupts_greeting,
        interrupt_after_ms: num("caller.behaviours.interrupt_after_ms", behaviours.interrupt_after_ms),
        speaks_over_turns: turns("caller.behaviours.speaks_over_turns", behaviours.speaks_over_turns),
        pause_mid_sentence_ms: num("caller.behaviours.pause_mid_sentence_ms", behaviours.pause_mid_sentence_ms, true),
        dtmf: behaviours.dtmf.map((press, i) => ({
          turn: num(`caller.behaviours.dtmf.${i}.turn`, press.turn),
          digits: press.digits,
        })),
        silent_turns: turns("caller.behaviours.silent_turns", behaviours.silent_turns),
      },
    },
    expectations: form.expectations.map((expectation, i) =>
      expectationBody(expectation, `expectations.${i}`, num, problems),
    ),
    variables: Object.fromEntries(
      form.variables.filter((row) => row.key.trim()).map((row) => [row.key.trim(), row.value]),
    ),
  };
  const parsed = CreateTestCaseBody.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      problems.push({ path: formPathOf(issue.path.join(".")), message: issue.message });
  }
  if (problems.length > 0) return { body: null, problems: firstPerPath(problems) };
  return { body, problems: [] } as { body: CreateTestCaseBody; problems: [] };
}

function voiceSettingsOf(choice: string, original: TestCase | null): TtsSettings | null {
  if (choice === DEFAULT_VOICE) return null;
  if (choice === KEPT_VOICE) return original?.caller.voice ?? null;
  return { provider: "local", config: { model: DEFAULT_CALLER_VOICE.config.model, voice: choice } } as TtsSettings;
}

function expectationBody(form: ExpectationForm, path: string, num: Read, problems: FieldProblem[]): unknown {
  switch (form.type) {
    case "rubric":
    case "outcome":
    case "end_reason":
      return form;
    case "tool_called":
      return {
        type: form.type,
        name: form.name,
        arguments_schema: schemaOf(form.arguments_schema, `${path}.arguments_schema`, problems),
      };
    case "variables_collected":
      return {
        type: form.type,
        // Every row is sent, blank ones too: a complaint's row number is then the row on screen.
        variables: form.variables.map((v) => ({ name: v.name, value: v.value.trim() === "" ? null : v.value })),
      };
    case "max_turns":
      return { type: form.type, turns: num(`${path}.turns`, form.turns) };
    case "latency":
      return { type: form.type, p95_ms: num(`${path}.p95_ms`, form.p95_ms) };
    case "max_silence":
      return { type: form.type, seconds: num(`${path}.seconds`, form.seconds) };
  }
}

/** A tool's argument schema as typed: blank is none; anything else must be a JSON object. */
function schemaOf(raw: string, path: string, problems: FieldProblem[]): Record<string, unknown> | null {
  if (raw.trim() === "") return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
    problems.push({ path, message: FORM_TEXTS.jsonObject });
  } catch (error) {
    problems.push({ path, message: FORM_TEXTS.json(error instanceof Error ? error.message : String(error)) });
  }
  return null;
}

/**
 * The form field an API path is about. The body and the form share their shape except where a
 * field stands for a whole list (turn lists, variables) or the schema checks inside a value the
 * form holds as text (a voice, a tool's schema).
 */
export function formPathOf(apiPath: string): string {
  const parts = apiPath.split(".");
  const collapse = (prefix: string, depth: number) =>
    apiPath === prefix || apiPath.startsWith(`${prefix}.`) ? parts.slice(0, depth).join(".") : null;
  return (
    collapse("caller.behaviours.speaks_over_turns", 3) ??
    collapse("caller.behaviours.silent_turns", 3) ??
    collapse("caller.voice", 2) ??
    collapse("caller.model", 2) ??
    collapse("variables", 1) ??
    (/^expectations\.\d+\.arguments_schema/.test(apiPath) ? parts.slice(0, 3).join(".") : null) ??
    (/^expectations\.\d+\.reasons\.\d+/.test(apiPath) ? parts.slice(0, 3).join(".") : null) ??
    apiPath
  );
}

const firstPerPath = (problems: FieldProblem[]) =>
  problems.filter((problem, i) => problems.findIndex((p) => p.path === problem.path) === i);
