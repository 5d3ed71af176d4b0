import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/client.ts";
import { DataDirLockedError } from "../src/db/data-dir-lock.ts";

const migrationsFolder = path.resolve(import.meta.dirname, "../drizzle");
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

function freshDataDir() {
  return mkdtempSync(path.join(tmpdir(), "parley-lock-"));
}

/** A live process of its own whose pid stands in for another server holding the data directory. */
async function otherProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ["-e", "console.log('up'); setInterval(() => {}, 1000)"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  children.push(child);
  if (!child.stdout || child.pid === undefined) throw new Error("could not start a helper process");
  await once(child.stdout, "data");
  return Object.assign(child, { pid: child.pid });
}

describe("one process per PGlite data directory (issue 10 item 6)", () => {
  it("refuses a second open of the same directory while the first is open, and allows it after close", async () => {
    const dataDir = freshDataDir();
    const first = await openDatabase({ dataDir, migrationsFolder });
    const lockFile = path.join(dataDir, "pglite.lock");
    expect(readFileSync(lockFile, "utf8").trim()).toBe(String(process.pid));
    await expect(openDatabase({ dataDir, migrationsFolder })).rejects.toBeInstanceOf(DataDirLockedError);
    await first.close();
    expect(existsSync(lockFile)).toBe(false);
    const again = await openDatabase({ dataDir, migrationsFolder });
    await again.close();
  });

  it("refuses to start while another live process holds the lock, naming its pid and what to do", async () => {
    const dataDir = freshDataDir();
    const other = await otherProcess();
    writeFileSync(path.join(dataDir, "pglite.lock"), `${other.pid}\n`);
    const opening = openDatabase({ dataDir, migrationsFolder });
    await expect(opening).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(opening).rejects.toThrow(`Another Parley process (pid ${other.pid}) is using the embedded database`);
    await expect(opening).rejects.toThrow("DATA_DIR");
  });

  it("takes over a stale lock left by a process that died (kill -9)", async () => {
    const dataDir = freshDataDir();
    mkdirSync(path.join(dataDir, "pglite"), { recursive: true });
    const other = await otherProcess();
    writeFileSync(path.join(dataDir, "pglite.lock"), `${other.pid}\n`);
    other.kill("SIGKILL");
    await once(other, "exit");
    const database = await openDatabase({ dataDir, migrationsFolder });
    expect(readFileSync(path.join(dataDir, "pglite.lock"), "utf8").trim()).toBe(String(process.pid));
    await database.close();
  });
});
