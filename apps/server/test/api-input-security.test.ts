import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_INPUT_DEPTH } from "../src/plugins/input-guards.ts";
import { createTestApp, signedInUser, type TestApp } from "./harness.ts";

/**
 * The acceptance test of issue 10: every route the OpenAPI document declares, fed NUL bytes,
 * deep nesting and oversized values in its path, query and body, answers below 500 and, when it
 * refuses, with the `{detail}` shape. The route list comes from the document, so a new route is
 * covered the day it is added.
 */

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}
interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
interface Route {
  method: Method;
  path: string;
  operation: Operation;
}

/** A value shaped like the schema, with `leaf` wherever it wants a string. */
function fill(schema: JsonSchema | undefined, leaf: unknown, depth = 0): unknown {
  if (!schema || depth > 6) return leaf;
  const choice = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (choice?.length) return fill(choice.find((s) => s.type !== "null") ?? choice[0], leaf, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (schema.properties || type === "object") {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, fill(s, leaf, depth + 1)]));
  }
  if (type === "array") return [fill(schema.items, leaf, depth + 1)];
  if (type === "number" || type === "integer") return 1;
  if (type === "boolean") return true;
  return leaf;
}

function nested(levels: number): unknown {
  let value: unknown = "x";
  for (let i = 0; i < levels; i += 1) value = i % 2 ? { a: value } : [value];
  return value;
}

interface Attack {
  name: string;
  pathValue: string;
  queryValue: string;
  /** The body for a JSON or form schema. */
  body(schema: JsonSchema): unknown;
}

const NUL = "a\u0000b";
const BIG = "x".repeat(200_000);
const ID = "00000000-0000-4000-8000-000000000000";
const attacks: Attack[] = [
  { name: "NUL bytes", pathValue: NUL, queryValue: NUL, body: (schema) => fill(schema, NUL) },
  {
    name: "deep nesting",
    pathValue: ID,
    queryValue: "x",
    body: (schema) => {
      const deep = nested(MAX_INPUT_DEPTH + 8);
      const shaped = fill(schema, deep);
      return shaped && typeof shaped === "object" && !Array.isArray(shaped) ? { ...shaped, deep } : deep;
    },
  },
  {
    name: "oversized values",
    pathValue: "p".repeat(5000),
    queryValue: BIG.slice(0, 20_000),
    body: (schema) => fill(schema, BIG),
  },
  // Over the 1 MB body limit as a whole.
  { name: "an oversized body", pathValue: ID, queryValue: "x", body: () => ({ blob: "y".repeat(1_100_000) }) },
];

function routesOf(doc: { paths: Record<string, Record<string, Operation>> }): Route[] {
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const upper = method.toUpperCase();
      if (upper === "GET" || upper === "POST" || upper === "PUT" || upper === "PATCH" || upper === "DELETE") {
        routes.push({ method: upper, path, operation });
      }
    }
  }
  // Deletes last, so the earlier requests still find what a delete might remove.
  return routes.sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
}

function requestFor(route: Route, attack: Attack, token: string) {
  const url = route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(attack.pathValue));
  const query = new URLSearchParams();
  for (const p of route.operation.parameters ?? []) if (p.in === "query") query.set(p.name, attack.queryValue);
  const content = route.operation.requestBody?.content ?? {};
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let payload: string | undefined;
  const json = content["application/json"];
  const form = content["application/x-www-form-urlencoded"];
  if (json) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(attack.body(json.schema));
  } else if (form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    const fields = attack.body(form.schema);
    const entries = fields && typeof fields === "object" ? Object.entries(fields) : [];
    payload = new URLSearchParams(
      entries.map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]),
    ).toString();
  }
  const search = query.toString();
  return { method: route.method, url: search ? `${url}?${search}` : url, headers, payload };
}

function problem(res: LightMyRequestResponse): string | undefined {
  if (res.statusCode >= 500) return `answered ${res.statusCode}: ${res.body.slice(0, 200)}`;
  if (res.statusCode < 400) return undefined;
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return `answered ${res.statusCode} without JSON: ${res.body.slice(0, 200)}`;
  }
  const detail = body && typeof body === "object" && "detail" in body ? body.detail : undefined;
  return typeof detail === "string" && detail !== ""
    ? undefined
    : `answered ${res.statusCode} without a detail: ${res.body.slice(0, 200)}`;
}

let t: TestApp;
let routes: Route[];
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  // A superuser, so the requests get past authorization and reach validation.
  token = (await signedInUser(t, { isSuperuser: true })).token;
  routes = routesOf((await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json());
});
afterAll(() => t.close());

describe("every OpenAPI route refuses hostile input with a 4xx {detail} (issue 10 acceptance)", () => {
  it("finds the routes in the OpenAPI document", () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toContain("POST /api/v1/login");
  });

  it.each(attacks.map((a) => [a.name, a] as const))("%s", async (_name, attack) => {
    const problems: string[] = [];
    for (const route of routes) {
      const res = await t.app.inject(requestFor(route, attack, token));
      const found = problem(res);
      if (found) problems.push(`${route.method} ${route.path} ${found}`);
    }
    expect(problems).toEqual([]);
  });
});
