/**
 * LOG_FORMAT=pretty: each JSON log line pino writes, rewritten as one line a person reads in a
 * terminal — time, level, message, then the fields that say where (request, workspace, call,
 * provider, status) before the rest. Done in the process (no transport thread), so it works the
 * same from the bundled server and from source.
 */

const LEVELS: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };
const COLORS: Record<number, string> = { 10: "90", 20: "36", 30: "32", 40: "33", 50: "31", 60: "35" };

/** Fields every line has, shown in their own places (or, for pid and hostname, not at all). */
const HEADER = new Set(["level", "time", "msg", "pid", "hostname"]);
/** The fields an operator looks for first, in this order, ahead of the others. */
const FIRST = ["reqId", "workspaceId", "callId", "provider", "status", "statusCode", "error"];

function text(value: unknown): string {
  if (typeof value === "string") return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  // Durations come with nanosecond fractions: three decimals read as well and fit the line.
  if (typeof value === "number") return String(Number.isInteger(value) ? value : Math.round(value * 1000) / 1000);
  if (typeof value === "boolean" || value === null) return String(value);
  return JSON.stringify(value) ?? String(value);
}

/** `req` and `err` shortened to what reads on one line: "GET /path" and "Type: message". */
function shortened(key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  if (key === "req" && typeof record.method === "string") return `${record.method} ${String(record.url ?? "")}`;
  if (key === "res" && typeof record.statusCode === "number") return record.statusCode;
  if ((key === "err" || key === "error") && typeof record.message === "string") {
    const type = typeof record.type === "string" && record.type !== "Error" ? `${record.type}: ` : "";
    return `${type}${record.message.replace(/\s*\n\s*/g, " ")}`;
  }
  return value;
}

/** One JSON log line as one readable line (ending in a newline); a line that is not JSON passes through. */
export function prettyLine(line: string, color = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith("\n") ? line : `${line}\n`;
  }
  const level = typeof entry.level === "number" ? entry.level : 30;
  const time = typeof entry.time === "number" ? new Date(entry.time).toISOString() : "";
  const name = (LEVELS[level] ?? String(level)).padEnd(5);
  const shownLevel = color ? `\u001b[${COLORS[level] ?? "0"}m${name}\u001b[0m` : name;
  const keys = Object.keys(entry).filter((k) => !HEADER.has(k));
  const ordered = [...FIRST.filter((k) => keys.includes(k)), ...keys.filter((k) => !FIRST.includes(k))];
  const fields = ordered
    .map((key) => [key, shortened(key, entry[key])] as const)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${text(value)}`);
  const message = typeof entry.msg === "string" ? entry.msg.replace(/\s*\n\s*/g, " ") : "";
  return `${[time, shownLevel, message, ...fields].filter(Boolean).join("  ")}\n`;
}

/** A pino destination writing each line pretty to `out` (colours only on a terminal, and never with NO_COLOR). */
export function prettyDestination(out: { write(chunk: string): unknown; isTTY?: boolean } = process.stdout) {
  const color = out.isTTY === true && !process.env.NO_COLOR;
  return { write: (line: string) => out.write(prettyLine(line, color)) };
}
