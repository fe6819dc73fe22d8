import { expect, t, test, waitForHydration } from "./support";

test("a script chunk that fails to load is reported as an application event and the page recovers by reloading", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "without JavaScript no chunk is loaded");
  // The event is recorded where a reload cannot erase it.
  await page.addInitScript(() => {
    window.addEventListener("polyglot:chunk-error", () =>
      sessionStorage.setItem("chunk-error-seen", String(Date.now())),
    );
  });
  await page.goto("/explore");
  await waitForHydration(page);
  // German translations are a chunk of their own: the first request for one fails, as after a deploy.
  consoleGuard.allowFailedChunk();
  let failed = 0;
  await page.route(/\/assets\/i18n-de-(common|pages|learning)-[\w-]+\.js$/, async (route) => {
    if (failed++ === 0) return route.abort("failed");
    return route.continue();
  });
  await page.getByLabel(t("en", "language.label")).selectOption("de");
  // The recovery is a full page load: on a busy machine it can take longer than the default wait.
  await expect(page).toHaveURL(/\/de\/explore$/, { timeout: 15_000 });
  await expect(page.locator("h1")).toHaveText(t("de", "titles.explore"));
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  expect(failed).toBeGreaterThan(0);
  expect(await page.evaluate(() => sessionStorage.getItem("chunk-error-seen"))).not.toBeNull();
});
