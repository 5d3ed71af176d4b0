// The API bench's twin (issue 35 item 4): a bare Fastify process answering GET /users/me and
// GET /agents with the SQL Parley sends for them, through the plain database client — no ORM, no
// hooks, no logging, no validation or response schemas. bench/api.bench.ts starts it beside Parley.
//
// The statements are the ones Parley's drizzle queries produce, captured from the pg client while
// Parley answered these two routes (pg.Client#query: text, parameters, rowMode "array"); the
// account check Parley runs on every request reads from memory (auth-state.ts) and sends none.
// The bench checks that both processes answer with the same body, so the two do the same work.
//
// Environment: TWIN_DATABASE_URL (PostgreSQL) or TWIN_PGLITE_DIR (a PGlite data directory of its
// own: PGlite opens a directory in one process only), PARLEY_SECRET_KEY (to verify Parley's access
// tokens). Prints `listening <url>` once it listens on 127.0.0.1.

import { hkdfSync } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { AssistantFields } from "@parley/contract";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { jwtVerify } from "jose";
import pg from "pg";

const USER_BY_ID = `select "id", "email", "username", "name", "password_hash", "is_superuser", "is_active", "tier_id", "sso_provider", "profile_image_url", "email_verified", "session_generation", "kept_session_id", "current_workspace_id", "created_at", "updated_at" from "users" where "users"."id" = $1`;
const ENTERPRISE_QUOTA = `select "user_id" from "enterprise_quotas" where "enterprise_quotas"."user_id" = $1`;
const MEMBERSHIP = `select "workspaces"."id", "workspaces"."name", "workspaces"."billing_email", "workspaces"."concurrency_limit", "workspaces"."created_by", "workspaces"."created_at", "workspaces"."updated_at", "workspace_members"."role" from "workspace_members" inner join "workspaces" on "workspaces"."id" = "workspace_members"."workspace_id" where ("workspace_members"."workspace_id" = $1 and "workspace_members"."user_id" = $2)`;
const ASSISTANTS_JSON = `select coalesce(jsonb_agg($1::jsonb || "agents"."config" || jsonb_build_object(
    'name', "agents"."name", 'id', "agents"."id", 'temp', "agents"."temp",
    'created_at', to_char("agents"."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updated_at', to_char("agents"."updated_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) order by "created_at" desc, "id" desc), '[]'::jsonb)::text from "agents" where ("agents"."workspace_id" = $2 and "agents"."temp" = $3)`;

// The first parameter of the list query: every assistant field's default (assistants/service.ts).
const { name: _name, ...fieldDefaults } = AssistantFields.parse({ name: "-" });
const FIELD_DEFAULTS_JSON = JSON.stringify(fieldDefaults);

type Rows = unknown[][];
type Query = (text: string, values: unknown[]) => Promise<Rows>;

async function openDatabase(): Promise<{ query: Query; close(): Promise<void> }> {
  const url = process.env.TWIN_DATABASE_URL;
  if (url) {
    // Parley's pool size (db/client.ts POOL_MAX).
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    return {
      query: async (text, values) => (await pool.query<unknown[]>({ text, values, rowMode: "array" })).rows,
      close: () => pool.end(),
    };
  }
  const dir = process.env.TWIN_PGLITE_DIR;
  if (!dir) throw new Error("set TWIN_DATABASE_URL or TWIN_PGLITE_DIR");
  const db = new PGlite(dir, { extensions: { vector } });
  await db.waitReady;
  return {
    query: async (text, values) => (await db.query<unknown[]>(text, values, { rowMode: "array" })).rows,
    close: () => db.close(),
  };
}

const secret = process.env.PARLEY_SECRET_KEY;
if (!secret) throw new Error("set PARLEY_SECRET_KEY");
// Parley's access-token key: HKDF of the secret key for "access-token" (lib/crypto.ts deriveKey).
const tokenKey = Buffer.from(hkdfSync("sha256", secret, "parley", "access-token", 32));

/** The token's user and workspace, verified as Parley verifies them (HS256, issuer, expiry). */
async function claimsOf(request: FastifyRequest): Promise<{ id: string; workspaceId: string | null } | null> {
  const header = request.headers.authorization ?? "";
  try {
    const { payload } = await jwtVerify(header.slice(7), tokenKey, {
      issuer: "parley",
      algorithms: ["HS256"],
      requiredClaims: ["exp", "iat"],
    });
    if (typeof payload.id !== "string") return null;
    return { id: payload.id, workspaceId: typeof payload.workspace_id === "string" ? payload.workspace_id : null };
  } catch {
    return null;
  }
}

const db = await openDatabase();
const app = Fastify({ logger: false });

app.get("/api/v1/users/me", async (request: FastifyRequest, reply: FastifyReply) => {
  const claims = await claimsOf(request);
  if (!claims) return reply.code(401).send();
  const [user] = await db.query(USER_BY_ID, [claims.id]);
  if (!user) return reply.code(404).send();
  const quota = await db.query(ENTERPRISE_QUOTA, [claims.id]);
  // Columns in USER_BY_ID's order; the answer is Parley's SessionUser.
  return {
    id: user[0],
    name: user[3],
    email: user[1],
    username: user[2],
    is_superuser: user[5],
    profile_image_url: user[9],
    sso_provider: user[8],
    tier_id: user[7],
    is_enterprise: quota.length > 0,
    has_password: user[4] !== null,
  };
});

app.get("/api/v1/agents", async (request: FastifyRequest, reply: FastifyReply) => {
  const claims = await claimsOf(request);
  if (!claims?.workspaceId) return reply.code(401).send();
  const members = await db.query(MEMBERSHIP, [claims.workspaceId, claims.id]);
  if (members.length === 0) return reply.code(404).send();
  const [row] = await db.query(ASSISTANTS_JSON, [FIELD_DEFAULTS_JSON, claims.workspaceId, false]);
  return reply.type("application/json; charset=utf-8").send(row?.[0] ?? "[]");
});

const url = await app.listen({ host: "127.0.0.1", port: 0 });
console.log(`listening ${url}`);
const stop = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.once("SIGTERM", () => void stop());
process.once("SIGINT", () => void stop());
