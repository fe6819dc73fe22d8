/**
 * Basic HTML mode: `Save-Data: on` or the footer's choice (a cookie) gives pages without any script or module preload.
 * The journeys themselves run in this mode in the `basic` project (see playwright.config.ts).
 */
import type { Page } from "@playwright/test";
import { BASIC_PROJECT, BROWSER_USER_AGENT, expect, PUBLIC_PAGES, t, test } from "./support";

async function expectBasic(page: Page, basic: boolean) {
  const scripts = page.locator("script");
  const preloads = page.locator('link[rel="modulepreload"]');
  if (basic) {
    await expect(scripts).toHaveCount(0);
    await expect(preloads).toHaveCount(0);
  } else {
    expect(await scripts.count()).toBeGreaterThan(0);
    expect(await preloads.count()).toBeGreaterThan(0);
  }
}

const footerButton = (page: Page, key: string) => page.locator("footer").getByRole("button", { name: t("en", key) });

test("the footer switches to basic HTML, which is remembered from page to page, and back to the full site", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name === BASIC_PROJECT, "this project starts in basic mode");
  await page.goto("/explore?language=es&level=beginner");
  await expectBasic(page, false);
  await footerButton(page, "footer.basicMode").click();
  await expect(page).toHaveURL(/\/explore\?language=es&level=beginner$/);
  await expectBasic(page, true);
  await page.goto("/de/form");
  await expectBasic(page, true);
  await page
    .locator("footer")
    .getByRole("button", { name: t("de", "footer.fullMode") })
    .click();
  await expect(page).toHaveURL(/\/de\/form$/);
  await expectBasic(page, false);
});

test("Save-Data: on gets basic HTML, unless the visitor chose the full site", async ({
  browser,
  javaScriptEnabled,
  baseURL,
  consoleGuard,
}, testInfo) => {
  test.skip(testInfo.project.name === BASIC_PROJECT, "this project starts in basic mode");
  const context = await browser.newContext({
    javaScriptEnabled,
    baseURL,
    userAgent: BROWSER_USER_AGENT,
    extraHTTPHeaders: { "Save-Data": "on" },
  });
  consoleGuard.watch(context);
  try {
    const page = await context.newPage();
    await page.goto("/");
    await expectBasic(page, true);
    await footerButton(page, "footer.fullMode").click();
    await expectBasic(page, false);
    await page.goto("/explore");
    await expectBasic(page, false);
  } finally {
    await context.close();
  }
});

test("every public page is basic HTML in basic mode", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== BASIC_PROJECT, "runs in the basic project");
  for (const pathname of PUBLIC_PAGES) {
    await page.goto(pathname);
    await expectBasic(page, true);
    await expect(footerButton(page, "footer.fullMode")).toBeVisible();
  }
});
