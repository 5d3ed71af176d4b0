import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["support/global-setup.ts"],
    testTimeout: 60_000,
    // Hooks start products and browsers: on a busy machine a start alone can take a minute or more.
    hookTimeout: 240_000,
    maxWorkers: 2,
  },
});
