/**
 * `npm run dev` on a fresh clone: the first page a developer opens hydrates with no failed request and no console error.
 * Before the routes were scanned for dependencies up front, Vite found them on the first page and answered its scripts
 * with 504 "Outdated Optimize Dep"; and links that took the render's nonce did not hydrate to the same attributes.
 *
 * Runs `server.ts` as `npm run dev` does (NODE_ENV=development, --conditions=development, Vite in middleware mode) with
 * an empty optimiser cache, and opens pages in Debian's Chromium.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser } from "@playwright/test";
import { CHROMIUM_LAUNCH_OPTIONS } from "../../scripts/support/chromium.ts";
import { BROWSER_USER_AGENT, startServer, type ServerProcess } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

let server: ServerProcess | undefined;
let browser: Browser | undefined;
let cacheDir: string | undefined;

beforeAll(async () => {
  server = await startServer({
    env: { NODE_ENV: "development", APP_STAGE: "development", VITE_CACHE_DIR: (cacheDir = tempDir("vite-cache")) },
    nodeOptions: ["--conditions=development"],
    healthTimeoutMs: 90_000,
  });
  browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
});

describe("the development server", () => {
  it("serves its first pages hydrated, with no failed request and no console error", async () => {
    const page = await browser!.newPage({ userAgent: BROWSER_USER_AGENT });
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning")
        problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("response", (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.statusText()}: ${response.url()}`);
    });
    for (const pathname of ["/de/explore", "/en/form", "/en"]) {
      await page.goto(server!.baseUrl + pathname, { waitUntil: "networkidle" });
      // React Router keeps the route modules it hydrated with; a page whose scripts failed has none.
      expect(await page.evaluate(() => "__reactRouterRouteModules" in window), pathname).toBe(true);
    }
    // A client-side navigation, which loads the next route's module through the optimised dependencies too.
    await page.getByRole("link", { name: "Explore", exact: true }).first().click();
    await page.waitForURL(/\/explore$/);
    await page.waitForLoadState("networkidle");
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
