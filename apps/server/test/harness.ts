import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../src/app.ts";
import { type Config, loadConfig } from "../src/config.ts";
import type { AppContext } from "../src/context.ts";
import { createContext } from "../src/create-context.ts";
import type { Email, Mailer } from "../src/lib/mailer.ts";
import { hashPassword } from "../src/lib/passwords.ts";
import type { UserRow } from "../src/modules/users/schema.ts";
import { insertUser } from "../src/modules/users/service.ts";
import { createPersonalWorkspace } from "../src/modules/workspaces/service.ts";
import { freshPostgresDatabase } from "./support/postgres-database.ts";

const migrationsFolder = path.resolve(import.meta.dirname, "../drizzle");

/** Which database the API suite runs on: PGlite by default, PostgreSQL with PARLEY_TEST_DB=postgres. */
export const testDatabaseKind = process.env.PARLEY_TEST_DB === "postgres" ? "postgres" : "pglite";

/** Captures outgoing email so tests can follow the links in it. */
export class MemoryMailer implements Mailer {
  readonly sent: Email[] = [];
  async send(email: Email) {
    this.sent.push(email);
  }
  /** The newest email to an address. */
  lastTo(address: string): Email | undefined {
    return this.sent.filter((e) => e.to.toLowerCase() === address.toLowerCase()).at(-1);
  }
  /** The first URL under PUBLIC_URL in the newest email to an address. */
  linkTo(address: string): URL | undefined {
    const match = this.lastTo(address)?.text.match(/https?:\/\/\S+/);
    return match ? new URL(match[0]) : undefined;
  }
}

/** A clock tests can move forward to exercise expiry. */
export class TestClock {
  private offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(seconds: number) {
    this.offsetMs += seconds * 1000;
  }
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  mailer: MemoryMailer;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
}

/**
 * Builds the real application on a fresh database (in-memory PGlite, or a new database on the
 * machine's PostgreSQL), with captured email and a movable clock.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const pgDb = testDatabaseKind === "postgres" ? await freshPostgresDatabase() : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-test-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PARLEY_SECRET_KEY: "test-secret-key-test-secret-key-0123456789",
    PUBLIC_URL: "http://localhost:5173",
    LOG_LEVEL: "silent",
    // Test apps run side by side: SIP only where a test asks for it (SIP_PORT: "0").
    SIP_PORT: "off",
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  // In memory unless a bench measures the database as an installation keeps it, in files.
  if (!pgDb && process.env.PARLEY_TEST_PGLITE_FILES !== "1") config.dataDir = "memory://";
  const mailer = new MemoryMailer();
  const clock = new TestClock();
  const { ctx, database } = await createContext(config, {
    log: pino({ level: "silent" }),
    migrationsFolder,
    mailer,
    now: clock.now,
  });
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  return {
    app,
    ctx,
    mailer,
    clock,
    config,
    async close() {
      await app.close();
      await database.close();
      await pgDb?.drop();
    },
  };
}

/**
 * For one test file: the test app (createTestApp, with `env` or what `env()` gives once the file's
 * earlier hooks have run), built before the file's tests and closed after them. The object returned
 * becomes the app when its hook has run, so tests use it like createTestApp's result.
 */
export function useTestApp(env: Record<string, string> | (() => Record<string, string>) = {}): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await createTestApp(typeof env === "function" ? env() : env));
  });
  afterAll(async () => {
    // Absent when the app never started (its hook failed): there is nothing to close then.
    await t.close?.();
  });
  return t;
}

let counter = 0;
export interface TestUser {
  user: UserRow;
  password: string;
  workspaceId: string;
}

/** Inserts a user with a personal workspace directly through the services. */
export async function seedUser(
  t: TestApp,
  overrides: Partial<{ email: string; username: string; name: string; isSuperuser: boolean; password: string }> = {},
): Promise<TestUser> {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  const password = overrides.password ?? "correct horse battery";
  const user = await insertUser(t.ctx.db, {
    email: overrides.email ?? `user${tag}@example.com`,
    username: overrides.username ?? `user${tag}`,
    name: overrides.name ?? `User ${tag}`,
    passwordHash: await hashPassword(password),
    isSuperuser: overrides.isSuperuser ?? false,
  });
  const workspace = await createPersonalWorkspace(t.ctx.db, user);
  return { user, password, workspaceId: workspace.id };
}

/** Signs in through POST /login and returns the access token and the refresh cookie. */
export async function login(t: TestApp, username: string, password: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/login",
    payload: new URLSearchParams({ username, password }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return { token: res.json<{ access_token: string }>().access_token, refreshCookie: refreshCookieFrom(res) };
}

export function refreshCookieFrom(res: LightMyRequestResponse): string | undefined {
  const cookie = res.cookies.find((c) => c.name === "parley_refresh");
  return cookie?.value || undefined;
}

/** Seeds a user and signs them in. */
export async function signedInUser(t: TestApp, overrides: Parameters<typeof seedUser>[1] = {}) {
  const seeded = await seedUser(t, overrides);
  const { token, refreshCookie } = await login(t, seeded.user.username, seeded.password);
  return { ...seeded, token, refreshCookie };
}

/** A small request helper: `call(t, "GET", "/api/v1/x", { token })`. */
export function call(
  t: TestApp,
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  url: string,
  options: { token?: string | undefined; body?: unknown; cookie?: string | undefined } = {},
) {
  return t.app.inject({
    method,
    url,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.cookie ? { cookie: `parley_refresh=${options.cookie}` } : {}),
    },
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
  });
}

/** Decodes a JWT's payload without verifying it (to read the claims a client would). */
export function claimsOf(token: string): Record<string, unknown> {
  const payload = token.split(".")[1] ?? "";
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
}
