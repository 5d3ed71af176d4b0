import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "testing/**/*.test.ts"],
    testTimeout: 30_000,
    maxWorkers: 2,
  },
});
