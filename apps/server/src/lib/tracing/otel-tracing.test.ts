import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { otelTracing } from "./otel-tracing.ts";

/** A collector on 127.0.0.1 that refuses spans (400) until told to take them. */
let accepting = false;
let received = 0;
const collector = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (accepting) received += 1;
    res.writeHead(accepting ? 200 : 400, { "content-type": "application/json" }).end("{}");
  });
});
beforeAll(() => new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve)));
afterAll(() => new Promise<void>((resolve) => collector.close(() => resolve())));

function capturingLog() {
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) =>
    void lines.push({ level, message, fields });
  return { lines, log: { info: at("info"), warn: at("warn"), error: at("error") } as unknown as FastifyBaseLogger };
}

describe("exporting traces", () => {
  it("warns once while the collector refuses spans, and says when it takes them again", async () => {
    const { lines, log } = capturingLog();
    const { port } = collector.address() as AddressInfo;
    const tracing = await otelTracing(
      { tracesUrl: `http://127.0.0.1:${port}/v1/traces?token=secret-in-url`, headers: {}, serviceName: "parley" },
      log,
    );
    const oneCall = async () => {
      tracing.calls
        .startCall({ callId: "c", workspaceId: "w", agentId: "a", channel: "web" })
        .end({ reason: "caller_hangup", status: "completed", durationMs: 1 });
      await tracing.flush();
    };
    await oneCall();
    await oneCall();
    accepting = true;
    await oneCall();
    await tracing.shutdown();

    expect(lines.filter((l) => l.level !== "info" || l.message !== "exporting traces over OTLP")).toEqual([
      expect.objectContaining({ level: "warn", message: "could not export traces" }),
      expect.objectContaining({ level: "info", message: "exporting traces again" }),
    ]);
    expect(received).toBe(1);
    expect(JSON.stringify(lines.map((l) => l.fields.collector))).not.toContain("secret-in-url");
  }, 30_000);
});
