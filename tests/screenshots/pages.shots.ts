/**
 * Screenshots of every page (see playwright.screenshots.config.ts). SHOTS_PAGES narrows the pages (comma-separated
 * paths), SHOTS_WIDTHS the widths; the learner is signed in once per run and gets a few terms to review.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, learnerTest, ROUTES, t, test, waitForHydration } from "../e2e/support";

const OUT = path.resolve("screenshots");
const WIDTHS = (process.env.SHOTS_WIDTHS ?? "360,1280").split(",").map(Number);
const ONLY = process.env.SHOTS_PAGES?.split(",");
const EXTRA = ["/de", "/uk/explore", "/texts/en-my-street", "/account/review", "/styleguide"];
const pages = [...ROUTES.map((route) => route.path), ...EXTRA].filter((p) => !ONLY || ONLY.includes(p));
const visitorPages = pages.filter((p) => !p.startsWith("/account"));
const learnerPages = pages.filter(
  (p) => p.startsWith("/account") || ["/", "/explore", "/texts/en-my-street"].includes(p),
);

async function shoot(page: Page, url: string, who: string, javaScriptEnabled: boolean) {
  const dir = path.join(OUT, `${who}-${javaScriptEnabled ? "js" : "nojs"}`);
  mkdirSync(dir, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 600 ? 740 : 800 });
      const response = await page.goto(url);
      if (!response || response.status() >= 500) throw new Error(`${url}: ${response?.status()}`);
      if (javaScriptEnabled) await waitForHydration(page);
      const name = `${url === "/" ? "home" : url.slice(1).replaceAll("/", "_")}-${width}-${scheme}.png`;
      await page.screenshot({ path: path.join(dir, name), fullPage: true });
    }
  }
}

test("visitor pages", async ({ page, javaScriptEnabled, consoleGuard }) => {
  consoleGuard.allow404();
  for (const url of visitorPages) await shoot(page, url, "visitor", javaScriptEnabled);
});

learnerTest("learner pages", async ({ page, javaScriptEnabled, consoleGuard }) => {
  consoleGuard.allow404();
  // Terms to show: the English beginner list, so the reader, the lists and the review have words in several stages.
  await page.goto("/account/explore/public?language=en&level=beginner");
  const addAll = page.getByRole("button", { name: t("en", "lists:public.addAll") });
  if ((await addAll.count()) > 0) await addAll.click();
  await expect(page.getByText(t("en", "lists:public.owned")).first()).toBeVisible();
  for (const url of learnerPages) await shoot(page, url, "learner", javaScriptEnabled);
});

learnerTest("the header's menus open, on a phone and wide", async ({ page, javaScriptEnabled }) => {
  const dir = path.join(OUT, `learner-${javaScriptEnabled ? "js" : "nojs"}`);
  mkdirSync(dir, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/de/account/home");
    if (javaScriptEnabled) await waitForHydration(page);
    await page.locator("details.site-menu > summary").click();
    await page.screenshot({ path: path.join(dir, `menu-360-${scheme}.png`) });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/account/home");
    if (javaScriptEnabled) await waitForHydration(page);
    await page.locator("details.account-menu > summary").click();
    await page.screenshot({ path: path.join(dir, `menu-1280-${scheme}.png`) });
  }
});
