import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";

/**
 * What an assistant's version records besides its fields (issue 30): the functions, tool servers
 * and workflow version it had when it was published, read from their own modules.
 */
let t: TestApp;
let hook: Server;

beforeAll(async () => {
  // A function's and a tool server's URL must answer nothing here: only the links are read.
  hook = createServer((_req, res) => res.end("{}"));
  await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
});

afterAll(async () => {
  await t.close();
  await new Promise((resolve) => hook.close(resolve));
});

async function ok<T>(response: ReturnType<typeof call>, status = 200): Promise<T> {
  const res = await response;
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

describe("the links an assistant's version records", () => {
  it("records its functions, tool servers and the published version of its workflow", async () => {
    const { token } = await signedInUser(t);
    const base = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
    const agent = await ok<{ id: string }>(
      call(t, "POST", "/api/v1/agents", { token, body: { name: "Front desk" } }),
      201,
    );
    const fn = await ok<{ id: string }>(
      call(t, "POST", "/api/v1/functions", {
        token,
        body: { name: "get_hours", description: "Opening hours", parameters: { type: "object" }, url: `${base}/h` },
      }),
      201,
    );
    await ok(call(t, "POST", "/api/v1/functions/assign", { token, body: { agent_id: agent.id, function_id: fn.id } }));
    const workflow = await ok<{ id: string }>(
      call(t, "POST", "/api/v1/workflows", { token, body: { name: "Intake" } }),
      201,
    );
    await ok(call(t, "POST", `/api/v1/workflows/${workflow.id}/publish`, { token }));

    await ok(call(t, "PATCH", `/api/v1/agents/${agent.id}`, { token, body: { workflow_id: workflow.id } }));
    const v2 = await ok<{ number: number; links: Record<string, unknown> }>(
      call(t, "GET", `/api/v1/agents/${agent.id}/versions/2`, { token }),
    );
    expect(v2.links).toMatchObject({ function_ids: [fn.id], mcp_server_ids: [], workflow_version: 1 });

    await ok(
      call(t, "POST", "/api/v1/functions/unassign", { token, body: { agent_id: agent.id, function_id: fn.id } }),
    );
    await ok(call(t, "PATCH", `/api/v1/agents/${agent.id}`, { token, body: { workflow_id: null } }));
    const v3 = await ok<{ links: Record<string, unknown> }>(
      call(t, "GET", `/api/v1/agents/${agent.id}/versions/3`, { token }),
    );
    expect(v3.links).toMatchObject({ function_ids: [], workflow_version: null });
  });
});
