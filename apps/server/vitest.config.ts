import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    // Hooks start apps, databases and SIP peers: on a busy machine that alone can take a minute.
    hookTimeout: 180_000,
    // Each file opens its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
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
