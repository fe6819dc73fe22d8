/**
 * Screenshots of the import preview (see playwright.screenshots.config.ts): its column headers and five sample rows, in
 * English and German, at the widths of SHOTS_WIDTHS (360 and 1280), light and dark.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, localePath, signInFresh, t, test, waitForHydration, type Locale } from "../e2e/support";

const OUT = path.resolve("screenshots");
const WIDTHS = (process.env.SHOTS_WIDTHS ?? "360,1280").split(",").map(Number);
const ROWS = [
  "term,meaning,part of speech,notes,example",
  "street,a road in a town,noun,,We live on a quiet street.",
  "to wander,to walk without a goal,verb,informal,They wandered through the old town for hours.",
  "quickly,fast,adverb,,She answered quickly.",
  "although,even though,coordinating_conjunction,,Although it rained we went out.",
  "neighbourhood,the area around your home,noun,British spelling,Our neighbourhood has a small bakery.",
  "bright,full of light,adjective,,",
].join("\n");

async function shootHere(page: Page, name: string, javaScriptEnabled: boolean) {
  const dir = path.join(OUT, `import-${javaScriptEnabled ? "js" : "nojs"}`);
  mkdirSync(dir, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 600 ? 740 : 800 });
      await page.screenshot({ path: path.join(dir, `${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
}

test("the import preview's headers and sample rows", async ({ page, javaScriptEnabled }) => {
  await signInFresh(page, javaScriptEnabled, "shots-import");
  for (const lng of ["en", "de"] as Locale[]) {
    await page.goto(localePath(lng, "/account/import"));
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByLabel(t(lng, "learning:import.paste")).fill(ROWS);
    await page.getByRole("button", { name: t(lng, "learning:import.preview") }).click();
    await expect(page.locator("table.import-sample tbody tr")).toHaveCount(5);
    await shootHere(page, `preview-${lng}`, javaScriptEnabled);
  }
});
