import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    // Logs of the code under test are shown for failed tests only.
    setupFiles: ["tests/support/capture-logs.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        // No database and no server: `npx vitest run tests/unit` (or `--project unit`) starts no PostgreSQL.
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts", "app/**/*.test.ts"],
          // The run's own temp folder, checked empty at the end.
          globalSetup: ["tests/support/temp-global-setup.ts"],
          // The modules the unit tests share (i18next, the locales, the analysers) load once per worker, not once per
          // file: each test file restores what it changes (timers, spies, the environment).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // The run's own temp folder, checked empty at the end (listed first, its teardown runs last), and one real
          // PostgreSQL server for the run (Debian's postgresql, on loopback), started only when an integration test
          // runs.
          globalSetup: ["tests/support/temp-global-setup.ts", "tests/support/pg-global-setup.ts"],
        },
      },
    ],
  },
});
