import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

/**
 * `npm start` as a user types it: the root package's own `start` script, run by npm (and npm's
 * shell) in a directory of the test's, so what is tested is exactly how npm launches the server
 * and passes signals on.
 */

const root = path.resolve(import.meta.dirname, "../../../..");

/** Writes `dir`/package.json with the root package's `start` script and runs `npm start` there. */
export function npmStart(
  dir: string,
  options: { env?: NodeJS.ProcessEnv; stderr?: "pipe" | "inherit" } = {},
): ChildProcess {
  const start = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "start-check", private: true, scripts: { start } }),
  );
  return spawn("npm", ["start", "--silent"], {
    cwd: dir,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", options.stderr ?? "inherit"],
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The processes under `pid` (children, their children…) with their command lines. */
export function descendants(pid: number): { pid: number; args: string }[] {
  const table = execFileSync("ps", ["-e", "-o", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((match) => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3] ?? "" }));
  const found: { pid: number; args: string }[] = [];
  const visit = (parent: number) => {
    for (const row of table.filter((r) => r.ppid === parent)) {
      found.push({ pid: row.pid, args: row.args });
      visit(row.pid);
    }
  };
  visit(pid);
  return found;
}

/**
 * Lays out in `dir` what `npm start` finds in a checkout that was built: scripts/start.mjs and its
 * launcher as they are in the repository, the server bundled from the current sources by its own
 * build script, and node_modules, migrations and the web app's build linked in. Nothing is stale,
 * so start.mjs builds nothing and goes straight to running the server, and the repository's own
 * dist folders (which other test runs use) are left alone.
 */
export function builtProductCopy(dir: string): void {
  mkdirSync(path.join(dir, "scripts"), { recursive: true });
  for (const file of ["start.mjs", "run-forwarding-signals.mjs"])
    copyFileSync(path.join(root, "scripts", file), path.join(dir, "scripts", file));
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));

  // The server's build script bundles ./src into ./dist of its working directory.
  const build = path.join(dir, "build-server");
  mkdirSync(build);
  symlinkSync(path.join(root, "apps/server/src"), path.join(build, "src"));
  execFileSync(process.execPath, [path.join(root, "apps/server/build.mjs")], { cwd: build, stdio: "inherit" });

  const server = path.join(dir, "apps/server");
  // Empty source folders: start.mjs compares the builds with them and finds nothing newer.
  mkdirSync(path.join(server, "src"), { recursive: true });
  mkdirSync(path.join(dir, "packages/contract"), { recursive: true });
  renameSync(path.join(build, "dist"), path.join(server, "dist"));
  symlinkSync(path.join(root, "apps/server/drizzle"), path.join(server, "drizzle"));
  symlinkSync(path.join(root, "apps/server/node_modules"), path.join(server, "node_modules"));
  const web = path.join(dir, "apps/web");
  mkdirSync(web, { recursive: true });
  const webDist = path.join(root, "apps/web/dist");
  if (existsSync(path.join(webDist, "index.html"))) symlinkSync(webDist, path.join(web, "dist"));
  else {
    // No web build in this checkout: a page stands in (these tests use the API only).
    mkdirSync(path.join(web, "dist"));
    writeFileSync(path.join(web, "dist/index.html"), "<!doctype html><title>Parley</title>");
  }
}

/** A TCP port of 127.0.0.1 free right now, for a server started in another process. */
export async function freeTcpPort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}
