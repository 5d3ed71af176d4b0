import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export interface RunningServer {
  url: string;
  admin: { email: string; password: string };
  logs(): string;
  stop(): Promise<void>;
}

/**
 * Where the suite's global setup left a data directory as a fresh start leaves it
 * (support/global-setup.ts); unset outside the suite (benchmarks), where each start creates its own.
 */
export const DATA_TEMPLATE_ENV = "PARLEY_E2E_DATA_TEMPLATE";

/**
 * Starts the built product (apps/server/dist + apps/web/dist) as a user would, on a random port
 * with a fresh data directory (PGlite), and waits until it answers.
 */
export async function startServer(env: Record<string, string> = {}, fixedPort?: number): Promise<RunningServer> {
  const port = fixedPort ?? (await freePort());
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-e2e-"));
  const template = process.env[DATA_TEMPLATE_ENV];
  // A test that names its own data directory (a restart on the same data) starts from that instead.
  if (template && env.DATA_DIR === undefined) cpSync(template, dataDir, { recursive: true });
  const url = `http://127.0.0.1:${port}`;
  const admin = { email: "admin@e2e.test", password: "e2e admin password" };
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["apps/server/dist/main.js"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      // Browsers and products run side by side on a shared machine: a lagging event loop would
      // refuse a test's call as busy at random. Refusing is tested in the server's own suite.
      ADMISSION_CONTROL: "off",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      PARLEY_ADMIN_EMAIL: admin.email,
      PARLEY_ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: "warn",
      // Products run side by side in the suite: no shared SIP port unless a test asks for one.
      SIP_PORT: "off",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  // A start takes seconds on an idle machine and much longer on a busy one: the wait is generous,
  // and a server that never answers fails the test here, with its output, not later as "refused".
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not answer /api/v1/health within 180 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    admin,
    logs: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
