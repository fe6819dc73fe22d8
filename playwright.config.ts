import { defineConfig } from "@playwright/test";
import { CHROMIUM_LAUNCH_OPTIONS } from "./scripts/support/chromium.ts";

const PORT = Number(process.env.E2E_PORT ?? 3210);
export const BASE_URL = `http://127.0.0.1:${PORT}`;

// Headless Chromium announces itself as "HeadlessChrome", which counts as a bot; learners use a regular browser.
const userAgent =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  // A flaky test is a bug to fix, not to retry.
  retries: 0,
  // The server-log reporter shows the e2e server's log for failed tests only.
  reporter: [["list"], ["./tests/e2e/server-log.ts"]],
  timeout: 30_000,
  use: { baseURL: BASE_URL, launchOptions: CHROMIUM_LAUNCH_OPTIONS, userAgent, trace: "retain-on-failure" },
  projects: [
    { name: "js-on", use: { javaScriptEnabled: true } },
    { name: "js-off", use: { javaScriptEnabled: false } },
    // Basic HTML mode (the footer's choice, a cookie): the journeys without JavaScript, on pages that carry no script.
    {
      name: "basic",
      use: { javaScriptEnabled: false },
      testMatch:
        /(sign-in|learning|daily|i18n|navigation|basic-mode|billing|reader|welcome|dictionary|review-focus)\.spec\.ts$/,
    },
  ],
  globalSetup: "./tests/e2e/global-setup.ts",
  // After global-setup's teardown: the run's temp folder must be empty.
  globalTeardown: "./tests/e2e/global-teardown.ts",
});
