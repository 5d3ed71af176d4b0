import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    maxWorkers: 2,
  },
});
