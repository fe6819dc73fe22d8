/**
 * Screenshots of the reader's instant meanings (a German word's glosses above the "add term" form) and of the
 * dictionaries' sources page, at 360 and 1280 px, light and dark (see playwright.screenshots.config.ts).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { forwardedFor } from "../e2e/mail";
import { chooseStudyLanguage, expect, signInFresh, t, test, waitForHydration } from "../e2e/support";

test.use({ extraHTTPHeaders: forwardedFor() });

test("instant meanings in the reader and the sources page", async ({ page, javaScriptEnabled }) => {
  const dir = path.resolve("screenshots", `dictionary-${javaScriptEnabled ? "js" : "nojs"}`);
  mkdirSync(dir, { recursive: true });
  await signInFresh(page, javaScriptEnabled, "dictionary-shots");
  await chooseStudyLanguage(page, javaScriptEnabled, { label: "German" });
  await page.goto("/account/texts/new");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill("Im Haus");
  await page
    .getByLabel(t("en", "reading:form.body"), { exact: true })
    .fill("Der Hund schläft im Haus. Die Katze trinkt Wasser aus dem Glas, und das Kind geht in die Schule.");
  await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
  await expect(page.locator("h1")).toHaveText("Im Haus");
  const reader = page.url();
  for (const scheme of ["light", "dark"] as const)
    for (const width of [360, 1280]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: width < 600 ? 740 : 800 });
      await page.goto(reader);
      if (javaScriptEnabled) await waitForHydration(page);
      await page.locator("a.word", { hasText: /^Hund$/ }).click();
      await expect(page.locator(".instant-meanings")).toBeVisible();
      await page.screenshot({ path: path.join(dir, `reader-meanings-${width}-${scheme}.png`) });
      await page.goto("/dictionaries");
      await page.screenshot({ path: path.join(dir, `sources-${width}-${scheme}.png`), fullPage: true });
    }
});
