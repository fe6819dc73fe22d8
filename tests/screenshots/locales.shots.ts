/**
 * The screens where the seven locales' words meet the least room (see playwright.screenshots.config.ts): at 360 px,
 * light, in every locale: the header with its menu closed and open, the review card's front and answer, the reader
 * with a word's panel open, a sample text signed in, the plans page (whole) and the footer. Written to
 * screenshots/locales/ to be read in each language. SHOTS_LOCALES narrows the locales (comma-separated).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, learnerTest, LOCALES, localePath, t, test, waitForHydration } from "../e2e/support";

const OUT = path.resolve("screenshots/locales");
const ONLY = process.env.SHOTS_LOCALES?.split(",");
const locales = LOCALES.filter((lng) => !ONLY || ONLY.includes(lng));

learnerTest("header, review card, reader panel, plans and footer in every locale at 360 px", async ({ page }) => {
  test.skip(
    test.info().project.name !== "js-on",
    "the layout is the same without JavaScript (pages.shots.ts has both)",
  );
  test.setTimeout(300_000);
  mkdirSync(OUT, { recursive: true });
  await page.setViewportSize({ width: 360, height: 740 });
  // Terms to review and a text whose words stand in several stages.
  await page.goto("/account/explore/public?language=en&level=beginner");
  const addAll = page.getByRole("button", { name: t("en", "lists:public.addAll") });
  if ((await addAll.count()) > 0) await addAll.click();
  await expect(page.getByText(t("en", "lists:public.owned")).first()).toBeVisible();
  await page.goto("/account/texts/new");
  await waitForHydration(page);
  await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill("My street");
  await page
    .getByLabel(t("en", "reading:form.body"), { exact: true })
    .fill("I live on a quiet street near the river. Every morning I buy bread and read the newspaper.");
  await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
  await expect(page.locator("h1")).toHaveText("My street");
  const text = new URL(page.url()).pathname;

  for (const lng of locales) {
    const shot = (name: string, fullPage = false) =>
      page.screenshot({ path: path.join(OUT, `${lng}-${name}.png`), fullPage });
    await page.goto(localePath(lng, "/account/home"));
    await waitForHydration(page);
    await shot("header");
    await page.locator("details.site-menu > summary").click();
    await shot("header-menu");

    await page.goto(localePath(lng, "/account/review"));
    await waitForHydration(page);
    await shot("review-front");
    const show = page.getByRole("button", { name: t(lng, "learning:review.show") });
    if ((await show.count()) > 0) {
      await show.click();
      await expect(show).toHaveCount(0);
      await shot("review-answer", true);
    }

    await page.goto(localePath(lng, text));
    await waitForHydration(page);
    await page.locator("a.word").nth(8).click();
    await expect(page.locator(".word-panel h2")).toBeVisible();
    await shot("reader-panel");

    await page.goto(localePath(lng, "/texts/en-the-letter"));
    await waitForHydration(page);
    await shot("sample-signed-in");

    await page.goto(localePath(lng, "/subscription"));
    await waitForHydration(page);
    await shot("plans", true);
    await page.locator(".site-footer").screenshot({ path: path.join(OUT, `${lng}-footer.png`) });
  }
});

test("the signed-out header and footer in every locale at 360 px", async ({ page }) => {
  test.skip(test.info().project.name !== "js-on", "the layout is the same without JavaScript");
  mkdirSync(OUT, { recursive: true });
  await page.setViewportSize({ width: 360, height: 740 });
  for (const lng of locales) {
    await page.goto(localePath(lng, "/"));
    await waitForHydration(page);
    await page.screenshot({ path: path.join(OUT, `${lng}-visitor-header.png`) });
    await page.locator(".site-footer").screenshot({ path: path.join(OUT, `${lng}-visitor-footer.png`) });
  }
});
