/**
 * The landing page shows the product: the reader's picture with coloured stages, whose words open their panel through
 * links rendered by the server (no JavaScript needed), laid out in lines as the reader is at every width; a picture of
 * the real reader in the page's theme; the sample texts as cards with language, level and length; and promises
 * counted from what ships.
 */
import { readdirSync } from "node:fs";
import { AxeBuilder } from "@axe-core/playwright";
import type { BrowserContext, Page, Response } from "@playwright/test";
import { STUDY_LANGUAGES } from "../../app/learning/vocabulary";
import { expect, t, test, waitForHydration } from "./support";

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** The demo's words grouped into lines by their top edge (a line's words share one), and the text's width. */
async function demoLines(page: Page) {
  return page.locator("#demo .reader-text").evaluate((text) => {
    const tops = [...text.querySelectorAll("a.word")].map((word) => Math.round(word.getBoundingClientRect().top));
    const lines = new Map<number, number>();
    for (const top of tops) lines.set(top, (lines.get(top) ?? 0) + 1);
    const card = text.parentElement!.getBoundingClientRect();
    return { words: tops.length, perLine: [...lines.values()], width: text.getBoundingClientRect().width, card };
  });
}

for (const [width, least] of [
  [360, 2],
  [768, 5],
  [1280, 5],
] as const) {
  test(`at ${width} px the reader demo is running text: lines of ${least} words or more, across its card`, async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/");
    if (javaScriptEnabled) await waitForHydration(page);
    const { words, perLine, width: textWidth, card } = await demoLines(page);
    expect(words).toBeGreaterThanOrEqual(15);
    // Every line but the last holds at least `least` words: no column of one word per line.
    expect(Math.min(...perLine.slice(0, -1)), `words per line: ${perLine.join(", ")}`).toBeGreaterThanOrEqual(least);
    // The text takes the card's width less its padding, not the reader page's measure beside a side panel.
    expect(textWidth).toBeGreaterThan(card.width - 2 * 32);
  });
}

/** The picture's requests while a new page loads and it comes into view, and the file it shows. */
async function loadPicture(
  context: BrowserContext,
  javaScriptEnabled: boolean,
  colorScheme: "light" | "dark",
  width: number,
) {
  const page = await context.newPage();
  await page.emulateMedia({ colorScheme });
  await page.setViewportSize({ width, height: 800 });
  const fetched: string[] = [];
  const record = (response: Response) => {
    if (/\/assets\/reader-\d+-(light|dark)-[\w-]+\.webp$/.test(response.url()))
      fetched.push(`${response.status()} ${response.headers()["content-type"]} ${response.url()}`);
  };
  page.on("response", record);
  await page.goto("/");
  if (javaScriptEnabled) await waitForHydration(page);
  const image = page.locator("img.reader-shot");
  await expect(image).toHaveAttribute("width", "1280");
  await expect(image).toHaveAttribute("height", "800");
  await expect(image).toHaveAttribute("loading", "lazy");
  await expect(image).toHaveAttribute("alt", t("en", "landing:picture.alt"));
  // Its room is kept before it loads: 1280 × 800 scaled to the column.
  const box = (await image.boundingBox())!;
  expect(box.height / box.width).toBeCloseTo(800 / 1280, 1);
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
    .toBeGreaterThan(0);
  const shown = await image.evaluate((element: HTMLImageElement) => element.currentSrc);
  await page.close();
  return { fetched, shown };
}

test("the picture of the reader has its size, loads, and is the one file of the page's theme", async ({
  context,
  javaScriptEnabled,
  baseURL,
}) => {
  for (const colorScheme of ["light", "dark"] as const) {
    const { fetched, shown } = await loadPicture(context, javaScriptEnabled, colorScheme, 1280);
    expect(shown).toMatch(new RegExp(`/reader-1280-${colorScheme}-`));
    expect(fetched, fetched.join("\n")).toHaveLength(1);
    expect(fetched[0]).toMatch(new RegExp(`^200 image/webp .*-${colorScheme}-`));
  }
  // A theme chosen in the footer wins over the system's; a phone gets the smaller file.
  await context.addCookies([{ name: "theme", value: "ImRhcmsi", url: baseURL! }]);
  const { fetched, shown } = await loadPicture(context, javaScriptEnabled, "light", 360);
  expect(shown).toMatch(/\/reader-640-dark-/);
  expect(fetched, fetched.join("\n")).toHaveLength(1);
});

test("the landing page has no accessibility violations in either theme", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "axe runs scripts in the page: once, with JavaScript, for a server-rendered document");
  test.setTimeout(60_000);
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto("/");
    await waitForHydration(page);
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
    expect(violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.target.join(" ")}`)).toEqual([]);
  }
});

test("the landing page promises what ships: the languages with public lists and the languages to study", async ({
  page,
}) => {
  const listLanguages = new Set(
    readdirSync("app/learning/public-lists")
      .filter((name) => name.endsWith(".json"))
      .map((name) => name.split("-")[0]),
  ).size;
  await page.goto("/");
  await expect(page.locator("main")).toContainText(
    t("en", "landing:features.explore.body_other", { count: listLanguages }),
  );
  await expect(page.locator("main")).toContainText(
    t("en", "landing:languagesBody_other", { count: new Set(STUDY_LANGUAGES).size }),
  );
  await page.goto("/de");
  await expect(page.locator("main")).toContainText(
    t("de", "landing:features.explore.body_other", { count: listLanguages }),
  );
});

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
