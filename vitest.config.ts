import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "app/**/*.test.ts"],
    environment: "node",
    // One real PostgreSQL server for the run (Debian's postgresql, on loopback).
    globalSetup: ["tests/support/pg-global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
