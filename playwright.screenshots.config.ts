import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * `npm run screenshots`: every page at 360 and 1280 px, light and dark, JavaScript on and off, as a visitor and as a
 * signed-in learner, against the production build (`npm run build` first) on the e2e server. Written to screenshots/
 * (ignored by git) to be looked at, not compared.
 */
export default defineConfig({
  ...base,
  testDir: "tests/screenshots",
  testMatch: /\.shots\.ts$/,
  reporter: "list",
  workers: 1,
  timeout: 120_000,
  projects: [
    { name: "js-on", use: { javaScriptEnabled: true } },
    { name: "js-off", use: { javaScriptEnabled: false } },
  ],
});
