import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";

/** Another live process holds the embedded database; the message says what to do about it. */
export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(
      `Another Parley process (pid ${pid}) is using the embedded database in ${lockFile.replace(/[/\\][^/\\]+$/, "")}.\n` +
        "  Stop that process first, or give this one its own DATA_DIR (or a PostgreSQL DATABASE_URL, which many processes can share).\n" +
        `  If no such process runs, delete ${lockFile}.`,
    );
    this.name = "DataDirLockedError";
  }
}

/** Lock files this process holds: a second open from the same process is refused as well. */
const heldHere = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}

function holderOf(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockFile, "utf8"), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock file of a PGlite data directory, which only one process may open: two would
 * each keep their own copy in memory and overwrite each other's acknowledged writes. The file
 * holds the owner's pid; a lock whose process is gone (a crash, kill -9) — or that carries our
 * own pid without this process holding it, as after a container restart where the server is
 * always pid 1 — is stale and taken over. Returns the release function.
 */
export function lockDataDir(lockFile: string): () => void {
  if (heldHere.has(lockFile)) throw new DataDirLockedError(lockFile, process.pid);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(lockFile, "wx");
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      heldHere.add(lockFile);
      return () => {
        heldHere.delete(lockFile);
        if (holderOf(lockFile) === process.pid) rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
    }
    const holder = holderOf(lockFile);
    if (holder !== undefined && holder !== process.pid && isRunning(holder))
      throw new DataDirLockedError(lockFile, holder);
    rmSync(lockFile, { force: true });
  }
  throw new Error(`Could not take the lock file ${lockFile}`);
}
