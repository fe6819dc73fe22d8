/**
 * The landing page shows the product: the reader's picture with coloured stages, whose words open their panel through
 * links rendered by the server (no JavaScript needed), and the sample texts as cards with language, level and length.
 */
import { expect, t, test, waitForHydration } from "./support";

test("a word of the reader demo opens its panel through a link, with or without JavaScript", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto("/de");
  if (javaScriptEnabled) await waitForHydration(page);
  const demo = page.locator("#demo");
  const box = (await demo.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(240);
  for (const stage of ["new", "tolearn", "inprogress", "needsreview", "learned", "ignored"])
    await expect(demo.locator(`.reader-text .w-${stage}`).first()).toBeVisible();
  const panel = demo.locator(".word-panel");
  await expect(panel).toContainText(`quiet — ${t("de", "landing:demo.words.quiet")}`);
  await expect(panel).toContainText(t("de", "reading:stages.inprogress"));

  await demo.getByRole("link", { name: "river" }).click();
  await expect(page).toHaveURL(/\/de\?word=8#demo$/);
  await expect(panel).toContainText(`river — ${t("de", "landing:demo.words.river")}`);
  await expect(panel).toContainText(t("de", "reading:stages.new"));
  await expect(demo.getByRole("link", { name: "river" })).toHaveAttribute("aria-current", "true");
});

test("the sample texts are cards with language, level and length, linking to the reader", async ({ page }) => {
  await page.goto("/");
  const cards = page.locator(".sample-cards > li");
  expect(await cards.count()).toBeGreaterThanOrEqual(3);
  await expect(cards.first()).toContainText(/· .+/);
  await expect(cards.first()).toContainText(/\d+ words/);
  const link = cards.first().getByRole("link");
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^\/texts\/[a-z]{2}-/);
  // One card per language: a language with many texts does not take every card.
  const languages = await cards.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("lang")));
  expect(new Set(languages).size).toBe(languages.length);
});

test("the styleguide shows the tokens and components in both palettes, and is not indexed", async ({ page }) => {
  const response = await page.goto("/styleguide");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["x-robots-tag"]).toBe("noindex");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expect(page.locator(".sg-theme")).toHaveCount(2);
  await expect(page.locator(".sg-theme").first().locator(".w-needsreview")).toBeVisible();
  // Each half in its own palette, whatever the page's theme.
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator(".sg-light")).toHaveCSS("background-color", "rgb(255, 255, 255)");
    await expect(page.locator(".sg-dark")).toHaveCSS("background-color", "rgb(20, 23, 29)");
  }
  await expect(page.locator("header").getByRole("link", { name: t("en", "titles.styleguide") })).toHaveCount(0);
});
