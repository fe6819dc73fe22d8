/**
 * The landing page's picture of the product: the reader of a learner's own text, taken from the running app at 1280 px
 * in both themes and written as WebP into app/reading/images/ (1280 and 640 px wide), encoded by the browser itself;
 * the PNG it was made from goes to screenshots/.
 * Run after `npm run build`:
 * `npx playwright test -c playwright.screenshots.config.ts tests/screenshots/landing-picture.shots.ts --project js-on`.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, learnerTest, t, waitForHydration } from "../e2e/support";

const OUT = path.resolve("app/reading/images");
const WIDTHS = [1280, 640];
const QUALITY = 0.8;
const KNOWN = ["I", "live", "on", "a", "the", "near", "There", "are", "one", "The", "is", "He", "has", "of", "my"];
const KNOWN_2 = ["In", "all", "play", "after", "sit", "talk", "because", "each", "other", "ten", "sells"];
const STAGES: Record<string, string> = {
  and: "learned",
  in: "learned",
  big: "learned",
  day: "inprogress",
  dog: "inprogress",
  school: "needsreview",
  like: "learned",
};

/** The picture as WebP at each width, scaled and encoded by a canvas in a blank page (the app's CSP forbids it). */
async function encode(app: Page, png: Buffer): Promise<Record<number, Buffer>> {
  const page = await app.context().newPage();
  const encoded = await page.evaluate(
    async ({ data, widths, quality }) => {
      const image = await createImageBitmap(await (await fetch(data)).blob());
      const out: Record<number, string> = {};
      for (const width of widths) {
        const canvas = document.createElement("canvas");
        canvas.width = width;
        canvas.height = Math.round((image.height * width) / image.width);
        const context = canvas.getContext("2d")!;
        context.imageSmoothingQuality = "high";
        context.drawImage(image, 0, 0, canvas.width, canvas.height);
        out[width] = canvas.toDataURL("image/webp", quality).split(",")[1]!;
      }
      return out;
    },
    { data: `data:image/png;base64,${png.toString("base64")}`, widths: WIDTHS, quality: QUALITY },
  );
  await page.close();
  return Object.fromEntries(Object.entries(encoded).map(([width, data]) => [width, Buffer.from(data, "base64")]));
}

/** Opens a new word of the reader and marks it known. */
async function markKnown(page: Page, word: string) {
  const link = page.locator(".reader-text a.word.w-new", { hasText: new RegExp(`^${word}$`) }).first();
  if ((await link.count()) === 0) return;
  await link.click();
  await expect(link).toHaveAttribute("aria-current", "true");
  await page
    .locator(".word-panel")
    .getByRole("button", { name: t("en", "reading:panel.ignore") })
    .click();
  await expect(page.locator(".reader-text a.word.w-new", { hasText: new RegExp(`^${word}$`) })).toHaveCount(0);
}

/** Opens a word of the reader and gives its term, if it has one, a stage through the panel's buttons. */
async function setStage(page: Page, word: string, stage: string) {
  const link = page.locator(".reader-text a.word", { hasText: new RegExp(`^${word}$`) }).first();
  await link.click();
  await expect(link).toHaveAttribute("aria-current", "true");
  await expect(page.locator(".word-panel")).toContainText(word);
  if ((await page.locator(".word-panel .stage-buttons").count()) === 0) return;
  const button = page.locator(".word-panel .stage-buttons button", { hasText: t("en", `reading:stages.${stage}`) });
  await button.click();
  await expect(button).toHaveAttribute("aria-pressed", "true");
}

learnerTest("the reader's picture for the landing page", async ({ page, javaScriptEnabled }) => {
  learnerTest.skip(!javaScriptEnabled, "one picture, taken with JavaScript");
  learnerTest.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/account/explore/public?language=en&level=beginner");
  await waitForHydration(page);
  const addAll = page.getByRole("button", { name: t("en", "lists:public.addAll") });
  if ((await addAll.count()) > 0) await addAll.click();
  await expect(page.getByText(t("en", "lists:public.owned")).first()).toBeVisible();
  await page.goto("/texts/en-my-street");
  await waitForHydration(page);
  const add = page.getByRole("button", { name: t("en", "reading:samples.add") });
  if ((await add.count()) > 0) await add.click();
  else await page.getByRole("link", { name: t("en", "reading:samples.open") }).click();
  await expect(page).toHaveURL(/\/account\/texts\/[\w-]+/);
  await waitForHydration(page);
  const reader = page.url().split("?")[0]!;
  // A learner some weeks in: the commonest words known, terms in every stage.
  for (const word of [...KNOWN, ...KNOWN_2]) await markKnown(page, word);
  for (const [word, stage] of Object.entries(STAGES)) await setStage(page, word, stage);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(reader);
    await waitForHydration(page);
    await page
      .locator(".reader-text a.word", { hasText: /^river$/ })
      .first()
      .click();
    await expect(page.locator(".word-panel")).toBeVisible();
    await page.mouse.move(0, 0);
    const png = await page.screenshot({ path: path.resolve("screenshots", `landing-picture-${scheme}.png`) });
    const encoded = await encode(page, png);
    for (const [width, bytes] of Object.entries(encoded))
      writeFileSync(path.join(OUT, `reader-${width}-${scheme}.webp`), bytes);
  }
});
