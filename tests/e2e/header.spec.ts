/**
 * The one navigation: signed in at 1280 px one row of at most 72 px with at most 8 visible controls (logo, Review with
 * its count, Read, My terms, Lists, Statistics, the account menu); signed out the logo, Explore, Plans, a compact
 * language switch and Sign in; at 320 px in all seven locales no sideways scrolling, no clipped label and an open menu
 * above the page; the review link's count is the number the review shows.
 */
import type { Locator, Page } from "@playwright/test";
import { forwardedFor } from "./mail";
import {
  expect,
  learnerTest,
  LOCALES,
  localePath,
  openAccountMenu,
  signInFresh,
  t,
  test,
  waitForHydration,
  type Locale,
} from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const WIDE = { width: 1280, height: 800 };

/** The header's visible controls, in order, with their text and box. */
async function visibleControls(header: Locator) {
  return header.locator("a, button, summary, select, input:not([type=hidden])").evaluateAll((elements) =>
    elements
      .filter((element) => element.checkVisibility({ visibilityProperty: true }))
      .map((element) => {
        const box = element.getBoundingClientRect();
        return { text: (element.textContent ?? "").replace(/\s+/g, " ").trim(), top: box.top, bottom: box.bottom };
      }),
  );
}

async function open(page: Page, path: string, javaScriptEnabled: boolean) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  if (javaScriptEnabled) await waitForHydration(page);
}

learnerTest(
  "signed in at 1280 px: one row of at most 72 px and 8 controls, the account's pages in a menu",
  async ({ page, javaScriptEnabled }) => {
    await page.setViewportSize(WIDE);
    for (const path of ["/account/home", "/explore"]) {
      await open(page, path, javaScriptEnabled);
      const header = page.locator("header.site-header");
      const box = (await header.boundingBox())!;
      expect(box.height, `${path}: header height`).toBeLessThanOrEqual(72);
      const controls = await visibleControls(header);
      expect(
        controls.map((control) => control.text),
        path,
      ).toEqual([
        "Polyglot",
        expect.stringMatching(/^Review \d+$/),
        t("en", "nav.read"),
        t("en", "nav.member"),
        t("en", "nav.lists"),
        t("en", "nav.statistics"),
        t("en", "nav.myAccount"),
      ]);
      // One row: every control lies within the header's height, centred on the same line.
      for (const control of controls) {
        expect(control.top, control.text).toBeGreaterThanOrEqual(box.y);
        expect(control.bottom, control.text).toBeLessThanOrEqual(box.y + box.height);
      }
      await expect(header.locator("select")).toHaveCount(0);
      await expect(header.getByRole("link", { name: t("en", "nav.player") })).toHaveCount(0);
    }
    await openAccountMenu(page, "en");
    const menu = page.locator("header details.account-menu .menu-panel");
    for (const key of ["nav.profile", "nav.settings", "nav.billing"])
      await expect(menu.getByRole("link", { name: t("en", key) })).toBeVisible();
    await expect(menu.getByRole("button", { name: t("en", "nav.signOut") })).toBeVisible();
    await menu.getByRole("link", { name: t("en", "nav.billing") }).click();
    await expect(page).toHaveURL(/\/account\/billing$/);
    await expect(page.locator("main h1")).toHaveText(t("en", "titles.billing"));
  },
);

test("signed out at 1280 px: logo, Explore, Plans, a language switch of links and Sign in", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.setViewportSize(WIDE);
  await open(page, "/explore?q=1", javaScriptEnabled);
  const header = page.locator("header.site-header");
  expect((await header.boundingBox())!.height).toBeLessThanOrEqual(72);
  expect((await visibleControls(header)).map((control) => control.text)).toEqual([
    "Polyglot",
    t("en", "nav.explore"),
    t("en", "nav.subscription"),
    `EN ${t("en", "language.label")}: English`,
    t("en", "nav.signIn"),
  ]);
  const languages = header.locator("details.language-menu");
  await languages.locator("summary").click();
  await expect(languages.getByRole("link")).toHaveCount(LOCALES.length);
  await expect(languages.getByRole("link", { name: "English" })).toHaveAttribute("aria-current", "true");
  await languages.getByRole("link", { name: "Deutsch" }).click();
  await expect(page).toHaveURL(/\/de\/explore\?q=1$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.locator("main h1")).toHaveText(t("de", "titles.explore"));
});

/**
 * At 320 px: no sideways scrolling; every visible control of the header, and of its menu once open, lies inside the
 * page and shows its whole label; the open menu is the topmost thing where its items are.
 */
async function expectNarrowHeader(page: Page, lng: Locale, where: string) {
  const fits = () =>
    page.evaluate(() => {
      const problems: string[] = [];
      if (document.documentElement.scrollWidth > window.innerWidth)
        problems.push(`document ${document.documentElement.scrollWidth} px wide`);
      for (const element of document.querySelectorAll<HTMLElement>(
        "header a, header button, header summary, header .menu-item",
      )) {
        if (!element.checkVisibility({ visibilityProperty: true })) continue;
        const box = element.getBoundingClientRect();
        const name = (element.textContent ?? "").trim();
        if (box.left < 0 || box.right > window.innerWidth) problems.push(`${name}: outside the page`);
        if (element.scrollWidth > element.clientWidth + 1) problems.push(`${name}: label clipped`);
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        if (!hit || !(element.contains(hit) || hit.contains(element))) problems.push(`${name}: covered`);
      }
      return problems;
    });
  expect(await fits(), `${lng} ${where}, menu closed`).toEqual([]);
  const header = page.locator("header.site-header");
  expect((await header.boundingBox())!.height, `${lng} ${where}: header height`).toBeLessThanOrEqual(64);
  await header.locator("details.site-menu > summary").click();
  await expect(header.locator("details.site-menu")).toHaveAttribute("open", "");
  expect(await fits(), `${lng} ${where}, menu open`).toEqual([]);
}

learnerTest(
  "signed in at 320 px in all seven locales: no overflow, no clipped label, the menu above the page",
  async ({ page, javaScriptEnabled }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 320, height: 640 });
    for (const lng of LOCALES) {
      await open(page, localePath(lng, "/account/home"), javaScriptEnabled);
      await expectNarrowHeader(page, lng, "signed in");
    }
  },
);

test("signed out at 320 px in all seven locales: no overflow, no clipped label, the menu above the page", async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 320, height: 640 });
  for (const lng of LOCALES) {
    await open(page, localePath(lng, "/explore"), javaScriptEnabled);
    await expectNarrowHeader(page, lng, "signed out");
  }
});

async function addTerm(page: Page, text: string, meaning: string) {
  await page.goto("/account/terms/new");
  await page.getByLabel(t("en", "learning:term.text"), { exact: true }).fill(text);
  await page.getByLabel(t("en", "learning:term.meaning"), { exact: true }).fill(meaning);
  await page.getByLabel(t("en", "learning:term.partOfSpeech")).selectOption({ label: "Noun" });
  await page.getByRole("button", { name: t("en", "learning:term.create") }).click();
  await expect(page.locator("h1")).toHaveText(text);
}

test("the review link counts what the review would show now", async ({ page, javaScriptEnabled }) => {
  test.setTimeout(60_000);
  await signInFresh(page, javaScriptEnabled, "header-count");
  const review = page.locator("header nav").getByRole("link", { name: /^Review \d+$/ });
  await expect(review).toHaveText("Review 0");
  await addTerm(page, "der Apfel", "apple");
  await addTerm(page, "die Birne", "pear");
  await expect(review).toHaveText("Review 2");
  await review.click();
  await expect(page.locator("main")).toContainText(t("en", "learning:review.remaining_other", { count: 2 }));
  await page.getByRole("button", { name: t("en", "learning:review.show") }).click();
  // "Good" and when the card comes back ("3 · Good 10 min" with JavaScript).
  await page.getByRole("button", { name: new RegExp(`^(3 · )?${t("en", "learning:review.grades.good")} `) }).click();
  // Good on a new term: it comes back after its learning step, later today; one card waits now.
  await expect(page.locator("main")).toContainText(t("en", "learning:review.remaining_one", { count: 1 }));
  // The review is a focused screen without the navigation (decision 111): the count shows once the learner leaves.
  await page.getByRole("link", { name: t("en", "nav.leaveReview") }).click();
  await expect(review).toHaveText("Review 1");
});
