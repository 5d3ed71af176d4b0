import { configDefaults, defineConfig } from "vitest/config";

/**
 * Files whose acceptance is how the server answers while it works: beside another test file on two
 * cores they would measure the neighbour, not the server. /health's p99 while it reads a poisoned
 * document; the caller's longest silence when the model hangs after a spoken turn, which includes the
 * offline recogniser's CPU time (a neighbour file's calls slowed it past the 4 s bound in CI).
 * `npm test` runs the suite without them (PARLEY_TEST_SPLIT=1), then them alone, one at a time
 * (PARLEY_TEST_ALONE=1). A plain `npx vitest run` still runs everything together.
 */
const RUN_ALONE = ["test/poisoned-documents.test.ts", "test/chaos/chaos-model-engine-gaps.test.ts"];
/**
 * The cluster files start several server processes behind HAProxy and Kamailio (deploy/) on
 * PostgreSQL: `npm test` runs them last, one file at a time (PARLEY_TEST_CLUSTER=1).
 */
const CLUSTER = ["test/cluster/**/*.test.ts"];
const alone = process.env.PARLEY_TEST_ALONE === "1";
const split = process.env.PARLEY_TEST_SPLIT === "1";
const cluster = process.env.PARLEY_TEST_CLUSTER === "1";

export default defineConfig({
  test: {
    include: cluster ? CLUSTER : alone ? RUN_ALONE : ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: cluster ? configDefaults.exclude : [...configDefaults.exclude, ...CLUSTER, ...(split ? RUN_ALONE : [])],
    testTimeout: 30_000,
    // Hooks start apps, databases and SIP peers: on a busy machine that alone can take a minute.
    hookTimeout: 180_000,
    // Each file opens its own database; two at a time suits a 2-core machine.
    maxWorkers: alone || cluster ? 1 : 2,
    // Files share a worker's loaded modules instead of importing the whole server again each
    // (halves the suite's CPU time). Safe because no test mocks modules, stubs globals or fakes
    // timers, and every file builds its own app, database and clock through test/harness.ts.
    isolate: false,
    experimental: {
      // Transformed TypeScript is kept on disk (node_modules/.experimental-vitest-cache, keyed by
      // the file's content): `npm test` runs this suite twice, on PGlite then on PostgreSQL, and the
      // second run, like every rerun of a single file, skips transforming the whole server again.
      fsModuleCache: true,
    },
  },
});
