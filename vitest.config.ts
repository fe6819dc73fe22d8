import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "app/**/*.test.ts"],
    environment: "node",
    // The run's own temp folder, checked empty at the end (its teardown runs last), and one real PostgreSQL server
    // for the run (Debian's postgresql, on loopback).
    globalSetup: ["tests/support/temp-global-setup.ts", "tests/support/pg-global-setup.ts"],
    // Logs of the code under test are shown for failed tests only.
    setupFiles: ["tests/support/capture-logs.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
