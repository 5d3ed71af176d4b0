import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Tracing costs nothing when no OTLP endpoint is set: the OpenTelemetry packages are not even loaded.
 * A fresh Node process (this worker shares modules with other test files) starts the tracing as the
 * server does and reports every @opentelemetry module it resolved, seen by a module resolve hook.
 */

const tracingModule = path.resolve(import.meta.dirname, "../src/lib/tracing/tracing.ts");

const child = `
import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel();
const loaded = new Set();
port1.on("message", (url) => loaded.add(url));
port1.unref();
const hook = "export async function initialize({ port }) { globalThis.port = port; }" +
  "export async function resolve(specifier, context, next) { const found = await next(specifier, context);" +
  " if (found.url.includes('@opentelemetry')) globalThis.port.postMessage(found.url); return found; }";
register("data:text/javascript," + encodeURIComponent(hook), { data: { port: port2 }, transferList: [port2] });
const { startTracing } = await import(${JSON.stringify(tracingModule)});
const log = { info() {}, warn() {}, error() {} };
const tracing = await startTracing({}, log, process.env);
const trace = tracing.calls.startCall({ callId: "c", workspaceId: "w", agentId: "a", channel: "web" });
trace.end({ reason: "caller_hangup", status: "completed", durationMs: 1 });
await tracing.shutdown();
await new Promise((resolve) => setTimeout(resolve, 200));
console.log(JSON.stringify({ exporting: tracing.exporting, loaded: [...loaded].filter((u) => /@opentelemetry\\/(sdk|exporter|resources|api)/.test(u)) }));
// As the server does once closed: an export still retrying to a collector that is down does not hold it.
process.exit(0);
`;

function startTracingIn(env: Record<string, string>): { exporting: boolean; loaded: string[] } {
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", child], {
    cwd: path.resolve(import.meta.dirname, ".."),
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`the tracing process failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}");
}

describe("tracing without an OTLP endpoint", () => {
  it("loads no OpenTelemetry package and exports nothing", () => {
    expect(startTracingIn({})).toEqual({ exporting: false, loaded: [] });
  }, 60_000);

  it("loads the SDK once an endpoint is set (the check sees it)", () => {
    // Port 9 (discard) on loopback: nothing listens, the export fails quietly at shutdown.
    const on = startTracingIn({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    expect(on.exporting).toBe(true);
    expect(on.loaded.some((url) => url.includes("@opentelemetry/sdk-trace-base"))).toBe(true);
  }, 60_000);
});
