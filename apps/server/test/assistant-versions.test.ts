import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { callVersionsOf } from "../src/modules/assistants/call-assistant.ts";
import { assistantVersions } from "../src/modules/assistants/schema.ts";
import { users } from "../src/modules/users/schema.ts";
import { call, signedInUser } from "./harness.ts";
import { keylessAssistant } from "./support/assistant-fields.ts";
import { createAssistant, roomToken, startRoom } from "./support/calls.ts";
import { closedCallLog, connectRealtime, useCallApp } from "./support/realtime-calls.ts";

/** Assistant versions (issue 30): drafts, publishing, rollback, the diff, and the version each call runs. */

const t = useCallApp(() => ({ text: "Happy to help." }));
type User = { token: string; workspaceId: string };

const api = (user: User, method: "GET" | "POST" | "PUT" | "PATCH", url: string, body?: Record<string, unknown>) =>
  call(t, method, `/api/v1${url}`, { token: user.token, ...(body ? { body } : {}) });

async function ok<T>(response: ReturnType<typeof api>, status = 200): Promise<T> {
  const res = await response;
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

type Version = {
  number: number;
  note: string;
  published: boolean;
  author_id: string | null;
  author_name: string | null;
};

describe("assistant versions over the API", () => {
  it("starts at version 1, edits a draft that no reader of the assistant sees, publishes it as version 2", async () => {
    const a = await signedInUser(t);
    const id = await createAssistant(t, a.token, { system_prompt: "Be brief." });
    expect(await ok<Version[]>(api(a, "GET", `/agents/${id}/versions`))).toEqual([
      expect.objectContaining({ number: 1, published: true, note: "Created", author_id: a.user.id }),
    ]);
    expect(await ok(api(a, "GET", `/agents/${id}/draft`))).toMatchObject({ changed: false, published_version: 1 });

    const draft = await ok(api(a, "PUT", `/agents/${id}/draft`, { system_prompt: "Be warm." }));
    expect(draft).toMatchObject({ changed: true, config: { system_prompt: "Be warm." } });
    expect(await ok(api(a, "GET", `/agents/${id}`))).toMatchObject({ system_prompt: "Be brief." });

    const published = await ok(api(a, "POST", `/agents/${id}/publish`, { note: "Warmer" }));
    expect(published).toMatchObject({ system_prompt: "Be warm." });
    expect(await ok(api(a, "GET", `/agents/${id}/draft`))).toMatchObject({ changed: false, published_version: 2 });
    const versions = await ok<Version[]>(api(a, "GET", `/agents/${id}/versions`));
    expect(versions.map((v) => [v.number, v.note, v.published])).toEqual([
      [2, "Warmer", true],
      [1, "Created", false],
    ]);
    expect(await ok(api(a, "GET", `/agents/${id}/versions/1`))).toMatchObject({
      number: 1,
      config: { name: "Front desk", system_prompt: "Be brief." },
    });
    expect((await api(a, "POST", `/agents/${id}/publish`, {})).statusCode).toBe(409);
  });

  it("diffs two versions by field and rolls back by publishing the old one as the next version", async () => {
    const a = await signedInUser(t);
    const id = await createAssistant(t, a.token, { system_prompt: "One." });
    await ok(api(a, "PATCH", `/agents/${id}`, { system_prompt: "Two.", llm_provider_config: { model: "scripted-2" } }));
    const diff = await ok(api(a, "GET", `/agents/${id}/versions/diff?from=1&to=2`));
    expect(diff).toEqual({
      from: 1,
      to: 2,
      changes: [
        { field: "llm_provider_config.model", from: "scripted", to: "scripted-2" },
        { field: "system_prompt", from: "One.", to: "Two." },
      ],
    });
    const rolledBack = await ok(api(a, "POST", `/agents/${id}/versions/1/restore`));
    expect(rolledBack).toMatchObject({ system_prompt: "One.", llm_provider_config: { model: "scripted" } });
    const [latest] = await ok<Version[]>(api(a, "GET", `/agents/${id}/versions`));
    expect(latest).toMatchObject({ number: 3, note: "Rollback to v1", published: true });
    expect(
      (await ok<{ changes: unknown[] }>(api(a, "GET", `/agents/${id}/versions/diff?from=1&to=3`))).changes,
    ).toEqual([]);
    expect((await api(a, "POST", `/agents/${id}/versions/9/restore`)).statusCode).toBe(404);
    // A version recorded before the other link kinds were (functions only): compared on those only.
    await t.ctx.db
      .update(assistantVersions)
      .set({ links: { function_ids: ["f1"] } })
      .where(and(eq(assistantVersions.agentId, id), eq(assistantVersions.number, 1)));
    expect(
      (await ok<{ changes: unknown[] }>(api(a, "GET", `/agents/${id}/versions/diff?from=1&to=3`))).changes,
    ).toEqual([{ field: "links.function_ids", from: ["f1"], to: [] }]);
  });

  it("keeps PATCH publishing as before; ?publish=false edits the draft only", async () => {
    const a = await signedInUser(t);
    const id = await createAssistant(t, a.token, { first_message: "Hi." });
    const draftOnly = await ok(api(a, "PATCH", `/agents/${id}?publish=false`, { first_message: "Hello." }));
    expect(draftOnly).toMatchObject({ id, first_message: "Hello." });
    expect(await ok(api(a, "GET", `/agents/${id}`))).toMatchObject({ first_message: "Hi." });
    // A plain PATCH edits the draft (the pending change included) and publishes it.
    await ok(api(a, "PATCH", `/agents/${id}`, { max_call_duration: 60 }));
    expect(await ok(api(a, "GET", `/agents/${id}`))).toMatchObject({ first_message: "Hello.", max_call_duration: 60 });
    expect((await ok<Version[]>(api(a, "GET", `/agents/${id}/versions`))).map((v) => v.number)).toEqual([2, 1]);
  });

  it("keeps a workflow attached under a pending draft when the draft is published", async () => {
    const a = await signedInUser(t);
    const id = await createAssistant(t, a.token, {});
    await ok(api(a, "PUT", `/agents/${id}/draft`, { system_prompt: "Pending." }));
    const workflow = await ok<{ id: string }>(api(a, "POST", "/workflows", { name: "Flow", assistant_id: id }), 201);
    expect(await ok(api(a, "GET", `/agents/${id}/draft`))).toMatchObject({ config: { workflow_id: workflow.id } });
    await ok(api(a, "POST", `/agents/${id}/publish`, {}));
    expect(await ok(api(a, "GET", `/agents/${id}`))).toMatchObject({
      system_prompt: "Pending.",
      workflow_id: workflow.id,
    });
  });

  it("names each version's author: their name, their email without one, none for Parley's own or a deleted account", async () => {
    const a = await signedInUser(t, { name: "Ana Lima" });
    const id = await createAssistant(t, a.token, {});
    await ok(api(a, "PUT", `/agents/${id}/draft`, { system_prompt: "Two." }));
    await ok(api(a, "POST", `/agents/${id}/publish`, { note: "v2" }));
    await ok(api(a, "PUT", `/agents/${id}/draft`, { system_prompt: "Three." }));
    await ok(api(a, "POST", `/agents/${id}/publish`, { note: "v3" }));
    const authorOf = (number: number, authorId: string | null) =>
      t.ctx.db
        .update(assistantVersions)
        .set({ authorId })
        .where(and(eq(assistantVersions.agentId, id), eq(assistantVersions.number, number)));
    // Version 1 as the migration wrote it (no author); version 2 by an account deleted since.
    await authorOf(1, null);
    await authorOf(2, randomUUID());
    const authors = async () =>
      (await ok<Version[]>(api(a, "GET", `/agents/${id}/versions`))).map((v) => [v.number, v.author_name]);
    expect(await authors()).toEqual([
      [3, "Ana Lima"],
      [2, null],
      [1, null],
    ]);
    expect(await ok(api(a, "GET", `/agents/${id}/versions/3`))).toMatchObject({ author_name: "Ana Lima" });
    await t.ctx.db.update(users).set({ name: " " }).where(eq(users.id, a.user.id));
    expect((await authors())[0]).toEqual([3, a.user.email]);
  });

  it("answers 404 for another workspace's assistant and its versions", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const id = await createAssistant(t, a.token, {});
    for (const url of [`/agents/${id}/versions`, `/agents/${id}/versions/1`, `/agents/${id}/draft`]) {
      expect((await api(b, "GET", url)).statusCode).toBe(404);
    }
    expect((await api(b, "POST", `/agents/${id}/versions/1/restore`)).statusCode).toBe(404);
    expect((await api(b, "PUT", `/agents/${id}/draft`, { name: "Mine" })).statusCode).toBe(404);
  });
});

describe("the API document", () => {
  it("declares every version and experiment route", async () => {
    const doc = (await call(t, "GET", "/api/v1/openapi.json")).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const declared = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(declared).toEqual(
      expect.arrayContaining([
        "PATCH /api/v1/agents/{id}",
        "GET /api/v1/agents/{id}/versions",
        "GET /api/v1/agents/{id}/versions/diff",
        "GET /api/v1/agents/{id}/versions/{number}",
        "POST /api/v1/agents/{id}/versions/{number}/restore",
        "GET /api/v1/agents/{id}/draft",
        "PUT /api/v1/agents/{id}/draft",
        "POST /api/v1/agents/{id}/publish",
        "GET /api/v1/agents/{id}/experiments",
        "POST /api/v1/agents/{id}/experiments",
        "GET /api/v1/agents/{id}/experiments/{eid}",
        "DELETE /api/v1/agents/{id}/experiments/{eid}",
        "POST /api/v1/agents/{id}/experiments/{eid}/{action}",
        "POST /api/v1/agents/{id}/experiments/{eid}/promote",
        "GET /api/v1/agents/{id}/experiments/{eid}/results",
      ]),
    );
  });
});

describe("the version a call runs", () => {
  /** Places a browser call, hears the greeting, hangs up; returns the greeting and the version recorded for it. */
  async function greetingOfACall(user: User, agentId: string) {
    const { room, callId } = await startRoom(t, user.token, agentId);
    const client = await connectRealtime(t, await roomToken(t, user.token, room));
    const greeting = await client.waitFor("transcript", (m) => m.role === "assistant" && m.final === true);
    client.send({ type: "hangup" });
    await closedCallLog(t, user.token, callId);
    const recorded = await callVersionsOf(t.ctx.db, user, [callId]);
    return { greeting: String(greeting.text), version: recorded.get(callId)?.version };
  }

  it("runs v1 while v2 is a draft, v2 once published, v1 again after a rollback", async () => {
    const a = await signedInUser(t);
    const id = await createAssistant(t, a.token, {
      ...keylessAssistant(t.llm.baseUrl),
      first_message: "This is version one.",
    });
    await ok(api(a, "PUT", `/agents/${id}/draft`, { first_message: "This is version two." }));
    expect(await greetingOfACall(a, id)).toEqual({ greeting: "This is version one.", version: 1 });

    await ok(api(a, "POST", `/agents/${id}/publish`, { note: "v2" }));
    expect(await greetingOfACall(a, id)).toEqual({ greeting: "This is version two.", version: 2 });

    await ok(api(a, "POST", `/agents/${id}/versions/1/restore`));
    expect(await greetingOfACall(a, id)).toEqual({ greeting: "This is version one.", version: 3 });
  });
});
