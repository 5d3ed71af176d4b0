import { AppError, type FieldError } from "./app-error.ts";

/** What a zod issue carries once Fastify or zod hands it over: its code, path, text and the bounds it broke. */
export interface IssueLike {
  code?: string;
  path: readonly PropertyKey[];
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  expected?: string;
  format?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
  input?: unknown;
}

const ACRONYMS: Record<string, string> = {
  id: "ID",
  url: "URL",
  api: "API",
  sip: "SIP",
  mcp: "MCP",
  tts: "TTS",
  stt: "STT",
};

/** "new_password" → "New password", "agent_id" → "Agent ID", "voice.speed" → "Speed". */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const last = [...path].reverse().find((part) => typeof part === "string");
  if (typeof last !== "string" || last === "") return "The request";
  const words = last
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => ACRONYMS[word.toLowerCase()] ?? word.toLowerCase());
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const TYPE_WORDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
};

const FORMAT_WORDS: Record<string, string> = {
  email: "an email address",
  uuid: "a valid ID",
  guid: "a valid ID",
  url: "a URL",
  datetime: "a date and time",
  date: "a date",
};

// zod's built-in texts ("Too small: expected string to have >=16 characters") speak to developers;
// a text a schema chose itself ("Password must be at least 8 characters") is kept as written.
const ZOD_DEFAULT_TEXT = /^(Invalid|Too (small|big)|Unrecognized key|Expected|Required$)/;

function bound(value: number | bigint | undefined): string {
  return value === undefined ? "" : String(value);
}

function sizeSentence(label: string, issue: IssueLike, atLeast: boolean): string {
  const limit = bound(atLeast ? issue.minimum : issue.maximum);
  const word = atLeast ? "at least" : "at most";
  switch (issue.origin) {
    case "string":
      if (atLeast && limit === "1") return `${label} is required.`;
      return `${label} must be ${word} ${limit} character${limit === "1" ? "" : "s"} long.`;
    case "array":
    case "set":
      return `${label} must have ${word} ${limit} item${limit === "1" ? "" : "s"}.`;
    case "file":
      return `${label} must be ${word} ${limit} bytes.`;
    default:
      return `${label} must be ${word} ${limit}.`;
  }
}

function choices(values: readonly unknown[]): string {
  const shown = values.slice(0, 8).map((v) => String(v));
  return values.length > shown.length ? `${shown.join(", ")}, …` : shown.join(", ");
}

/** One sentence a person can act on for one issue, in the field's own words. */
export function issueSentence(issue: IssueLike): string {
  const label = fieldLabel(issue.path);
  if (issue.message && !ZOD_DEFAULT_TEXT.test(issue.message)) {
    return /[.!?…]$/.test(issue.message) ? issue.message : `${issue.message}.`;
  }
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined && / received undefined$/.test(issue.message)) return `${label} is required.`;
      return `${label} must be ${TYPE_WORDS[issue.expected ?? ""] ?? `of type ${issue.expected}`}.`;
    case "too_small":
      return sizeSentence(label, issue, true);
    case "too_big":
      return sizeSentence(label, issue, false);
    case "invalid_format":
      if (label === "ID" && (issue.format === "uuid" || issue.format === "guid")) return "The ID is not valid.";
      return `${label} must be ${FORMAT_WORDS[issue.format ?? ""] ?? "in the expected format"}.`;
    case "invalid_value":
      return issue.values?.length ? `${label} must be one of: ${choices(issue.values)}.` : `${label} is not valid.`;
    case "unrecognized_keys":
      return `Unknown field${issue.keys?.length === 1 ? "" : "s"}: ${(issue.keys ?? []).join(", ")}.`;
    case "not_multiple_of":
      return `${label} is not an allowed step.`;
    default:
      return `${label} is not valid.`;
  }
}

/** "Password must be at least 8 characters (new_password)." — the sentence, naming the field as the API spells it. */
function withField(message: string, field: string): string {
  if (!field) return message;
  const end = /[.!?…]$/.exec(message)?.[0] ?? ".";
  return `${message.replace(/[.!?…]$/, "")} (${field})${end}`;
}

/**
 * The 422 answer for a list of issues: `detail` reads as sentences a person would write, each
 * naming the field as the API spells it for API users; `errors` gives each field's own sentence
 * so a form can show it beside that field.
 */
export function describeIssues(issues: readonly IssueLike[]): { detail: string; errors: FieldError[] } {
  const errors = issues.map((issue) => ({
    field: issue.path.map(String).join("."),
    message: issueSentence(issue),
  }));
  const sentences = [...new Set(errors.map((e) => withField(e.message, e.field)))];
  return { detail: sentences.join(" ") || "The request is not valid.", errors };
}

/** A 422 for issues a service found itself (a zod safeParse of a JSON field, say), shaped like the schema's own. */
export function validationFailed(issues: readonly IssueLike[]): AppError {
  const { detail, errors } = describeIssues(issues);
  return new AppError("validation", detail, {}, errors);
}
