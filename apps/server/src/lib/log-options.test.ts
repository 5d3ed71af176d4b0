import { ProviderError, TelephonyError } from "@parley/engine";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.ts";
import { createLogger, failureFields } from "./log-options.ts";
import { prettyLine } from "./pretty-log.ts";

function capture() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => lines.push(line) } };
}

describe("LOG_LEVEL and LOG_FORMAT (issue 27 item 4)", () => {
  it("reads LOG_FORMAT (json by default) and refuses anything but json or pretty, naming the variable", () => {
    expect(loadConfig({}).logFormat).toBe("json");
    expect(loadConfig({ LOG_FORMAT: "pretty", LOG_LEVEL: "warn" })).toMatchObject({
      logFormat: "pretty",
      logLevel: "warn",
    });
    expect(() => loadConfig({ LOG_FORMAT: "yaml" })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_FORMAT: "yaml" })).toThrow(/LOG_FORMAT: must be json or pretty/);
    expect(() => loadConfig({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL: must be one of fatal, error, warn/);
  });

  it("writes pretty lines a person reads: time, level, message, then the key fields, not JSON", () => {
    const out = capture();
    const log = createLogger({ level: "info", format: "pretty" }, out.stream);
    log.warn({ reqId: "req-1", status: 404, provider: "twilio", workspaceId: "ws-1" }, "carrier refused");
    expect(out.lines).toHaveLength(1);
    const [line = ""] = out.lines;
    expect(() => JSON.parse(line)).toThrow();
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}WARN {3}carrier refused {2}reqId=req-1 {2}workspaceId=ws-1/);
    expect(line).toContain("provider=twilio  status=404");
    expect(line.endsWith("\n")).toBe(true);
    expect(line.trimEnd()).not.toContain("\n");
  });

  it("keeps JSON lines by default and drops what is below LOG_LEVEL", () => {
    const out = capture();
    const log = createLogger({ level: "warn", format: "json" }, out.stream);
    log.info("an info line");
    log.warn("a warn line");
    log.error("an error line");
    expect(out.lines.map((l) => JSON.parse(l).msg)).toEqual(["a warn line", "an error line"]);
  });

  it("shows a request and an error on one line each", () => {
    const json = JSON.stringify({
      level: 50,
      time: 0,
      msg: "request failed",
      req: { method: "POST", url: "/api/v1/x" },
      res: { statusCode: 502 },
      err: { type: "TypeError", message: "first\nsecond", stack: "TypeError: first\n    at x" },
      responseTime: 15.119214999998803,
    });
    expect(prettyLine(json)).toBe(
      '1970-01-01T00:00:00.000Z  ERROR  request failed  req="POST /api/v1/x"  res=502  err="TypeError: first second"  responseTime=15.119\n',
    );
  });
});

describe("failureFields", () => {
  it("names the provider and HTTP status a vendor's error carries, through its causes, and redacts the message", () => {
    const vendor = new TelephonyError("twilio", "not_found", "twilio: HTTP 404: not found", 404);
    expect(failureFields(new Error("import failed", { cause: vendor }))).toEqual({
      provider: "twilio",
      status: 404,
      error: "import failed: twilio: HTTP 404: not found",
    });
    const keyed = new ProviderError("openai", "HTTP 401: Incorrect API key sk-proj-abcdefghijklmnop", false, 401);
    expect(failureFields(keyed).error).not.toContain("abcdefghijklmnop");
    expect(failureFields(new Error("socket hang up"))).toEqual({ error: "socket hang up" });
  });

  it("logs a string error field as the string, not as its characters", () => {
    const out = capture();
    createLogger({ level: "info", format: "json" }, out.stream).warn({ error: "plain text" }, "x");
    expect(JSON.parse(out.lines[0] ?? "{}").error).toBe("plain text");
  });
});
