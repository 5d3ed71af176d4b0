import {
  Assistant,
  ErrorResponse,
  Workflow,
  type WorkflowGraph,
  WorkflowPage,
  WorkflowPublishError,
  WorkflowValidationResult,
  type WorkflowVariable,
  WorkflowVersionList,
} from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPublishedWorkflow } from "../src/modules/workflows/published.ts";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { signedInMember } from "./support/workspace-members.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);

afterAll(async () => {
  await t.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
const at = { x: 0, y: 0 };
const variables: WorkflowVariable[] = [
  { name: "reason", type: "enum", description: "Why they call", enum_values: ["sales", "support"] },
];
/** start → ask (collects reason) → route → sales | support | default end. */
const threeBranches: WorkflowGraph = {
  nodes: [
    { id: "start", type: "start", position: at, data: { name: "Start", greeting: "Hi!", prompt: "" } },
    {
      id: "ask",
      type: "conversation",
      position: { x: 0, y: 100 },
      data: {
        name: "Ask",
        prompt: "Ask why they call.",
        collect: [{ variable: "reason", description: "", required: true }],
      },
    },
    { id: "route", type: "condition", position: { x: 0, y: 200 }, data: { name: "Route" } },
    { id: "sales", type: "end", position: { x: -100, y: 300 }, data: { name: "Sales", message: "Sales will call." } },
    {
      id: "support",
      type: "end",
      position: { x: 0, y: 300 },
      data: { name: "Support", message: "Support will call." },
    },
    { id: "end", type: "end", position: { x: 100, y: 300 }, data: { name: "End", message: "Bye." } },
  ],
  edges: [
    { id: "e1", source: "start", target: "ask", condition: { kind: "always" } },
    { id: "e2", source: "ask", target: "route", condition: { kind: "model", description: "They said why" } },
    {
      id: "e3",
      source: "route",
      target: "sales",
      condition: { kind: "variable", variable: "reason", operator: "eq", value: "sales" },
    },
    {
      id: "e4",
      source: "route",
      target: "support",
      condition: { kind: "variable", variable: "reason", operator: "eq", value: "support" },
    },
    { id: "e5", source: "route", target: "end", condition: { kind: "default" } },
  ],
};

async function createWorkflow(user: User, body: Record<string, unknown> = {}): Promise<Workflow> {
  const res = await call(t, "POST", "/api/v1/workflows", { token: user.token, body: { name: "Intake", ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return Workflow.parse(res.json());
}

async function createAssistant(user: User, body: Record<string, unknown> = {}): Promise<Assistant> {
  const res = await call(t, "POST", "/api/v1/agents", { token: user.token, body: { name: "Front desk", ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return Assistant.parse(res.json());
}

async function getAssistant(user: User, id: string): Promise<Assistant> {
  const res = await call(t, "GET", `/api/v1/agents/${id}`, { token: user.token });
  expect(res.statusCode, res.body).toBe(200);
  return Assistant.parse(res.json());
}

/** The same value with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseKeys(v)]),
  );
}

const save = (user: User, id: string, body: Record<string, unknown>) =>
  call(t, "PATCH", `/api/v1/workflows/${id}`, { token: user.token, body });
const publish = (user: User, id: string) => call(t, "POST", `/api/v1/workflows/${id}/publish`, { token: user.token });

describe("workflows API", () => {
  it("creates a workflow with a start and an end, reads, saves the draft and deletes it", async () => {
    const user = await signedInUser(t);
    const created = await createWorkflow(user, { description: "Routes callers" });
    expect(created).toMatchObject({
      name: "Intake",
      description: "Routes callers",
      global_prompt: "",
      variables: [],
      published_version: null,
      has_unpublished_changes: true,
      assistant_ids: [],
    });
    expect(created.graph.nodes.map((n) => n.type)).toEqual(["start", "end"]);

    const saved = await save(user, created.id, {
      name: "Intake v2",
      global_prompt: "You are the front desk of Acme.",
      variables,
      graph: threeBranches,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const read = Workflow.parse(
      (await call(t, "GET", `/api/v1/workflows/${created.id}`, { token: user.token })).json(),
    );
    expect(read).toMatchObject({ name: "Intake v2", description: "Routes callers", variables });
    expect(read.graph).toEqual(threeBranches);

    const bad = await save(user, created.id, { graph: { nodes: [{ id: "x", type: "teleport" }], edges: [] } });
    expect(bad.statusCode).toBe(422);
    expect(ErrorResponse.parse(bad.json()).errors?.length).toBeGreaterThan(0);

    const deleted = await call(t, "DELETE", `/api/v1/workflows/${created.id}`, { token: user.token });
    expect(deleted.statusCode).toBe(200);
    expect((await call(t, "GET", `/api/v1/workflows/${created.id}`, { token: user.token })).statusCode).toBe(404);
  });

  it("lists a page at a time, searched and sorted", async () => {
    const user = await signedInUser(t);
    for (const name of ["Billing", "Appointments", "Bookings 100%"]) await createWorkflow(user, { name });
    const page = async (query: string) => {
      const res = await call(t, "GET", `/api/v1/workflows?${query}`, { token: user.token });
      expect(res.statusCode, res.body).toBe(200);
      return WorkflowPage.parse(res.json());
    };
    const first = await page("items_per_page=2&sort_by=name&sort_order=asc");
    expect(first).toMatchObject({ total_count: 3, page: 1, items_per_page: 2, pages: 2 });
    expect(first.data.map((w) => w.name)).toEqual(["Appointments", "Billing"]);
    expect(first.data[0]).toMatchObject({ node_count: 2, published_version: null, has_unpublished_changes: true });
    expect((await page("items_per_page=2&page=2&sort_by=name&sort_order=asc")).data.map((w) => w.name)).toEqual([
      "Bookings 100%",
    ]);
    expect((await page("search=100%25")).data.map((w) => w.name)).toEqual(["Bookings 100%"]);
    expect((await page("search=b")).total_count).toBe(2);
    expect((await call(t, "GET", "/api/v1/workflows?sort_by=colour", { token: user.token })).statusCode).toBe(422);
  });

  it("publishes a valid draft as numbered versions and refuses an invalid one with its issues", async () => {
    const user = await signedInUser(t);
    const wf = await createWorkflow(user);
    await save(user, wf.id, { graph: threeBranches });

    const refused = await publish(user, wf.id);
    expect(refused.statusCode).toBe(422);
    const { issues } = WorkflowPublishError.parse(refused.json());
    expect(issues).toContainEqual(expect.objectContaining({ code: "missing_variable", variable: "reason" }));

    await save(user, wf.id, { variables });
    const first = await publish(user, wf.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(Workflow.parse(first.json())).toMatchObject({ published_version: 1, has_unpublished_changes: false });

    // Saving the same content back (keys in another order) is no change; a real edit is.
    const reordered = reverseKeys(threeBranches);
    const same = Workflow.parse((await save(user, wf.id, { graph: reordered, name: "Renamed" })).json());
    expect(same.has_unpublished_changes).toBe(false);
    const edited = structuredClone(threeBranches);
    const startNode = edited.nodes[0];
    if (startNode?.type !== "start") throw new Error("the start node comes first");
    startNode.data.greeting = "Hello, thanks for calling!";
    expect(Workflow.parse((await save(user, wf.id, { graph: edited })).json()).has_unpublished_changes).toBe(true);

    const second = Workflow.parse((await publish(user, wf.id)).json());
    expect(second).toMatchObject({ published_version: 2, has_unpublished_changes: false });
    const versions = WorkflowVersionList.parse(
      (await call(t, "GET", `/api/v1/workflows/${wf.id}/versions`, { token: user.token })).json(),
    );
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions[0]?.graph.nodes[0]).toMatchObject({ data: { greeting: "Hello, thanks for calling!" } });
    expect(versions[1]?.graph).toEqual(threeBranches);
    expect(versions[1]?.variables).toEqual(variables);

    // A draft edit after publishing does not change what calls run.
    await save(user, wf.id, { global_prompt: "Draft only" });
    const assistant = await createAssistant(user, { workflow_id: wf.id });
    const running = await loadPublishedWorkflow(t.ctx.db, { workspaceId: user.workspaceId }, assistant);
    expect(running).toMatchObject({ workflow_id: wf.id, name: "Renamed", version: 2, global_prompt: "" });
  });

  it("validates a graph without saving it, including the workspace's tools", async () => {
    const user = await signedInUser(t);
    const other = await signedInUser(t);
    const fn = await call(t, "POST", "/api/v1/functions", {
      token: other.token,
      body: { name: "book", description: "Books", url: "https://example.com/book" },
    });
    expect(fn.statusCode, fn.body).toBe(201);
    const otherFunctionId = fn.json<{ id: string }>().id;
    const graph: WorkflowGraph = {
      nodes: [
        { id: "start", type: "start", position: at, data: { name: "Start", greeting: "Hi {{name}}", prompt: "" } },
        {
          id: "tool",
          type: "tool",
          position: at,
          data: {
            name: "Book",
            tool: { kind: "function", function_id: otherFunctionId },
            arguments: {},
            result_variable: null,
          },
        },
        { id: "end", type: "end", position: at, data: { name: "End", message: "Bye" } },
      ],
      edges: [
        { id: "a", source: "start", target: "tool", condition: { kind: "always" } },
        { id: "b", source: "tool", target: "end", condition: { kind: "always" } },
      ],
    };
    const res = await call(t, "POST", "/api/v1/workflows/validate", {
      token: user.token,
      body: { graph, variables: [], global_prompt: "Be brief." },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { issues } = WorkflowValidationResult.parse(res.json());
    expect(issues.map((i) => [i.code, i.node_id])).toEqual([
      ["missing_variable", "start"],
      ["unknown_tool", "tool"],
    ]);
    const mine = await call(t, "POST", "/api/v1/workflows/validate", {
      token: other.token,
      body: { graph, variables: [{ name: "name", type: "string" }] },
    });
    expect(WorkflowValidationResult.parse(mine.json()).issues).toEqual([]);
  });

  it("duplicates the draft as a new, unpublished workflow", async () => {
    const user = await signedInUser(t);
    const wf = await createWorkflow(user, { name: "Support line" });
    await save(user, wf.id, { graph: threeBranches, variables, global_prompt: "Be kind." });
    expect((await publish(user, wf.id)).statusCode).toBe(200);
    await createAssistant(user, { workflow_id: wf.id });

    const res = await call(t, "POST", `/api/v1/workflows/${wf.id}/duplicate`, { token: user.token });
    expect(res.statusCode, res.body).toBe(201);
    const copy = Workflow.parse(res.json());
    expect(copy).toMatchObject({
      name: "Support line (copy)",
      global_prompt: "Be kind.",
      variables,
      published_version: null,
      has_unpublished_changes: true,
      assistant_ids: [],
    });
    expect(copy.id).not.toBe(wf.id);
    expect(copy.graph).toEqual(threeBranches);
    const long = await createWorkflow(user, { name: "x".repeat(120) });
    const longCopy = Workflow.parse(
      (await call(t, "POST", `/api/v1/workflows/${long.id}/duplicate`, { token: user.token })).json(),
    );
    expect(longCopy.name).toHaveLength(120);
    expect(longCopy.name.endsWith(" (copy)")).toBe(true);
  });
});

describe("assistants and their workflow", () => {
  it("creates an assistant's own workflow, attached to it", async () => {
    const user = await signedInUser(t);
    const assistant = await createAssistant(user);
    expect(assistant.workflow_id).toBeNull();
    const wf = await createWorkflow(user, { name: "Front desk flow", assistant_id: assistant.id });
    expect(wf.assistant_ids).toEqual([assistant.id]);
    expect((await getAssistant(user, assistant.id)).workflow_id).toBe(wf.id);

    const stranger = await signedInUser(t);
    const refused = await call(t, "POST", "/api/v1/workflows", {
      token: stranger.token,
      body: { name: "Hijack", assistant_id: assistant.id },
    });
    expect(refused.statusCode).toBe(404);
    expect((await getAssistant(user, assistant.id)).workflow_id).toBe(wf.id);
  });

  it("takes a workflow_id of the workspace only (422 otherwise)", async () => {
    const user = await signedInUser(t);
    const other = await signedInUser(t);
    const mine = await createWorkflow(user);
    const theirs = await createWorkflow(other);

    const created = await call(t, "POST", "/api/v1/agents", {
      token: user.token,
      body: { name: "Sneaky", workflow_id: theirs.id },
    });
    expect(created.statusCode).toBe(422);
    expect(ErrorResponse.parse(created.json()).errors).toEqual([expect.objectContaining({ field: "workflow_id" })]);

    const assistant = await createAssistant(user, { workflow_id: mine.id });
    expect(assistant.workflow_id).toBe(mine.id);
    for (const workflowId of [theirs.id, "00000000-0000-4000-8000-000000000000"]) {
      const res = await call(t, "PATCH", `/api/v1/agents/${assistant.id}`, {
        token: user.token,
        body: { workflow_id: workflowId },
      });
      expect(res.statusCode).toBe(422);
    }
    expect((await getAssistant(user, assistant.id)).workflow_id).toBe(mine.id);
    const detached = await call(t, "PATCH", `/api/v1/agents/${assistant.id}`, {
      token: user.token,
      body: { workflow_id: null },
    });
    expect(detached.statusCode, detached.body).toBe(200);
    expect(Assistant.parse(detached.json()).workflow_id).toBeNull();
    // Another field's save leaves the workflow as it was.
    await call(t, "PATCH", `/api/v1/agents/${assistant.id}`, { token: user.token, body: { workflow_id: mine.id } });
    await call(t, "PATCH", `/api/v1/agents/${assistant.id}`, { token: user.token, body: { name: "Renamed" } });
    expect((await getAssistant(user, assistant.id)).workflow_id).toBe(mine.id);
  });

  it("lists a workflow's assistants and detaches them when it is deleted", async () => {
    const user = await signedInUser(t);
    const wf = await createWorkflow(user);
    const a = await createAssistant(user, { name: "A", workflow_id: wf.id });
    const b = await createAssistant(user, { name: "B", workflow_id: wf.id });
    const c = await createAssistant(user, { name: "C" });
    const read = Workflow.parse((await call(t, "GET", `/api/v1/workflows/${wf.id}`, { token: user.token })).json());
    expect(read.assistant_ids).toEqual([a.id, b.id]);
    const listed = WorkflowPage.parse((await call(t, "GET", "/api/v1/workflows", { token: user.token })).json());
    expect(listed.data.find((w) => w.id === wf.id)?.assistant_ids).toEqual([a.id, b.id]);

    expect((await call(t, "DELETE", `/api/v1/workflows/${wf.id}`, { token: user.token })).statusCode).toBe(200);
    for (const id of [a.id, b.id, c.id]) expect((await getAssistant(user, id)).workflow_id).toBeNull();
  });

  it("runs nothing for an assistant without a published workflow of its workspace", async () => {
    const user = await signedInUser(t);
    const other = await signedInUser(t);
    const wf = await createWorkflow(user);
    const tenant = { workspaceId: user.workspaceId };
    expect(await loadPublishedWorkflow(t.ctx.db, tenant, { workflow_id: null })).toBeNull();
    expect(await loadPublishedWorkflow(t.ctx.db, tenant, { workflow_id: wf.id })).toBeNull();
    expect((await publish(user, wf.id)).statusCode).toBe(200);
    expect(await loadPublishedWorkflow(t.ctx.db, tenant, { workflow_id: wf.id })).toMatchObject({ version: 1 });
    expect(
      await loadPublishedWorkflow(t.ctx.db, { workspaceId: other.workspaceId }, { workflow_id: wf.id }),
    ).toBeNull();
  });
});

describe("workflow access", () => {
  it("keeps each workspace's workflows to itself", async () => {
    const owner = await signedInUser(t);
    const stranger = await signedInUser(t);
    const wf = await createWorkflow(owner);
    const requests: [method: "GET" | "PATCH" | "DELETE" | "POST", url: string, body?: unknown][] = [
      ["GET", `/api/v1/workflows/${wf.id}`],
      ["PATCH", `/api/v1/workflows/${wf.id}`, { name: "Mine now" }],
      ["POST", `/api/v1/workflows/${wf.id}/duplicate`],
      ["POST", `/api/v1/workflows/${wf.id}/publish`],
      ["GET", `/api/v1/workflows/${wf.id}/versions`],
      ["DELETE", `/api/v1/workflows/${wf.id}`],
    ];
    for (const [method, url, body] of requests) {
      const res = await call(t, method, url, { token: stranger.token, body });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = WorkflowPage.parse((await call(t, "GET", "/api/v1/workflows", { token: stranger.token })).json());
    expect(list.total_count).toBe(0);
    const still = Workflow.parse((await call(t, "GET", `/api/v1/workflows/${wf.id}`, { token: owner.token })).json());
    expect(still).toMatchObject({ name: "Intake", published_version: null });
  });

  it("lets members manage workflows like owners, and nobody signed out", async () => {
    const owner = await signedInUser(t);
    const { token } = await signedInMember(t, owner.workspaceId);
    const asMember = { ...owner, token };

    const wf = await createWorkflow(asMember, { name: "Made by a member" });
    expect((await save(asMember, wf.id, { graph: threeBranches, variables })).statusCode).toBe(200);
    expect((await publish(asMember, wf.id)).statusCode).toBe(200);
    const seen = Workflow.parse((await call(t, "GET", `/api/v1/workflows/${wf.id}`, { token: owner.token })).json());
    expect(seen.published_version).toBe(1);

    for (const [method, url] of [
      ["GET", "/api/v1/workflows"],
      ["POST", "/api/v1/workflows"],
      ["GET", `/api/v1/workflows/${wf.id}`],
      ["POST", `/api/v1/workflows/${wf.id}/publish`],
      ["POST", "/api/v1/workflows/validate"],
    ] as const) {
      expect((await call(t, method, url, { body: {} })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("declares every route in the OpenAPI document", async () => {
    const doc = (await call(t, "GET", "/api/v1/openapi.json")).json<{
      paths: Record<string, Record<string, { tags?: string[] }>>;
    }>();
    const declared = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.tags?.includes("workflows"))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(declared).toEqual(
      expect.arrayContaining([
        "GET /api/v1/workflows",
        "POST /api/v1/workflows",
        "POST /api/v1/workflows/validate",
        "GET /api/v1/workflows/{id}",
        "PATCH /api/v1/workflows/{id}",
        "DELETE /api/v1/workflows/{id}",
        "POST /api/v1/workflows/{id}/duplicate",
        "POST /api/v1/workflows/{id}/publish",
        "GET /api/v1/workflows/{id}/versions",
      ]),
    );
  });
});
