import { performance } from "node:perf_hooks";

/** A statement the database answered this recently is the health check's answer. */
export const DATABASE_ANSWERED_FRESH_MS = 1_000;

export interface DatabaseCheckOptions {
  /** When the database last answered one of the server's statements (performance.now()), 0 if never. */
  lastAnsweredAt: () => number;
  /** Asks the database itself (`select 1`); rejects when it cannot be reached. */
  ping: () => Promise<unknown>;
  now?: () => number;
}

/**
 * Whether the database answers, for /health and /health/ready. A statement of the server's own
 * answered within the last second is the answer: while 50 calls hang up together the pool answers
 * every few ms, and a probe's own `select 1` waited for a PostgreSQL backend and then for the
 * server's thread again, on a busy machine a second and third wait for a CPU in every probe
 * (30–140 ms measured, issue 35). Otherwise one `select 1` runs, shared by the probes that arrive
 * meanwhile, so probes never queue statements of their own behind a burst.
 */
export function databaseCheck(options: DatabaseCheckOptions): () => Promise<boolean> {
  const now = options.now ?? (() => performance.now());
  let inFlight: Promise<boolean> | null = null;
  return () => {
    const answeredAt = options.lastAnsweredAt();
    if (answeredAt > 0 && now() - answeredAt < DATABASE_ANSWERED_FRESH_MS) return Promise.resolve(true);
    inFlight ??= options
      .ping()
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
}
