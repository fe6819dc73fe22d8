/**
 * Moving around: header, footer and in-page links. With JavaScript they are client-side navigations (a marker on
 * `window` survives them); without it they are ordinary page loads that reach the same pages.
 */
import type { Page } from "@playwright/test";
import {
  expect,
  expectDocumentLanguage,
  expectSeoLinks,
  learnerTest,
  localePath,
  openAccountMenu,
  pageTitle,
  t,
  test,
  waitForHydration,
  type Locale,
} from "./support";

type Marked = { __marker?: number };

/** With JavaScript, marks the current document so a full reload would be noticed. */
async function markDocument(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return;
  await waitForHydration(page);
  await page.evaluate(() => ((window as Marked).__marker = 1));
}

/** With JavaScript, the document marked by markDocument is still the one shown. */
async function expectSameDocument(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return;
  expect(await page.evaluate(() => (window as Marked).__marker), "no full page reload").toBe(1);
}

async function expectPage(page: Page, lng: Locale, pathname: string, titleKey: string) {
  await expect(page).toHaveURL((url) => url.pathname === localePath(lng, pathname));
  await expect(page.locator("main h1")).toHaveText(t(lng, titleKey));
  await expect(page).toHaveTitle(pageTitle(t(lng, titleKey)));
  await expectDocumentLanguage(page, lng);
}

for (const lng of ["en", "de"] as const) {
  test(`${lng}: header links lead to explore, plans, sign-in and home`, async ({ page, javaScriptEnabled }) => {
    await page.goto(localePath(lng, "/"));
    await markDocument(page, javaScriptEnabled);
    const header = page.locator("header.site-header");
    const nav = header.getByRole("navigation", { name: t(lng, "nav.main") });

    await nav.getByRole("link", { name: t(lng, "nav.explore") }).click();
    await expectPage(page, lng, "/explore", "titles.explore");
    await expect(nav.getByRole("link", { name: t(lng, "nav.explore") })).toHaveAttribute("aria-current", "page");

    await nav.getByRole("link", { name: t(lng, "nav.subscription") }).click();
    await expectPage(page, lng, "/subscription", "titles.subscription");

    await header.getByRole("link", { name: t(lng, "nav.signIn") }).click();
    await expectPage(page, lng, "/form", "titles.form");

    await header.getByRole("link", { name: "Polyglot" }).click();
    await expectPage(page, lng, "/", "titles.home");
    await expectSameDocument(page, javaScriptEnabled);
  });

  test(`${lng}: the home page reached by a link carries its loader text (meta description) in ${lng}`, async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.goto(localePath(lng, "/explore"));
    await markDocument(page, javaScriptEnabled);
    await page.locator("header.site-header").getByRole("link", { name: "Polyglot" }).click();
    await expectPage(page, lng, "/", "titles.home");
    // With JavaScript this is the `/de.data` request of a client-side navigation, whose locale comes from its path.
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", t(lng, "landing:description"));
    await expectSameDocument(page, javaScriptEnabled);
  });

  test(`${lng}: footer links lead to the prerendered privacy, terms and crowdfunding pages`, async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.goto(localePath(lng, "/explore"));
    await markDocument(page, javaScriptEnabled);
    const footer = page.locator("footer.site-footer");

    await footer.getByRole("link", { name: t(lng, "footer.privacy") }).click();
    await expectPage(page, lng, "/company/privacy", "titles.privacy");
    await expect(page.locator("main")).toContainText(t(lng, "legal:privacy.intro"));

    await footer.getByRole("link", { name: t(lng, "footer.termsOfUse") }).click();
    await expectPage(page, lng, "/company/terms-of-use", "titles.termsOfUse");
    await expect(page.locator("main")).toContainText(t(lng, "legal:termsOfUse.intro"));

    await footer.getByRole("link", { name: t(lng, "footer.crowdfunding") }).click();
    await expectPage(page, lng, "/crowdfunding-campaign", "titles.crowdfunding");
    await expectSameDocument(page, javaScriptEnabled);
  });
}

learnerTest(
  "a signed-in learner moves through the account area, the player and back",
  async ({ page, javaScriptEnabled }) => {
    await page.goto("/uk/account/home");
    await markDocument(page, javaScriptEnabled);
    const accountNav = page.getByRole("navigation", { name: t("uk", "nav.account") });

    await accountNav.getByRole("link", { name: t("uk", "nav.lists") }).click();
    await expectPage(page, "uk", "/account/explore/public", "titles.public");

    await accountNav.getByRole("link", { name: t("uk", "nav.member") }).click();
    await expectPage(page, "uk", "/account/explore/member", "titles.member");

    await openAccountMenu(page, "uk");
    await page
      .locator("header")
      .getByRole("link", { name: t("uk", "nav.settings") })
      .click();
    await expectPage(page, "uk", "/account/settings", "titles.settings");

    // The player left the navigation until it plays; its address stays.
    await expect(page.locator("header").getByRole("link", { name: t("uk", "nav.player") })).toHaveCount(0);
    await expectSameDocument(page, javaScriptEnabled);
    await page.goto("/uk/account/player");
    await markDocument(page, javaScriptEnabled);
    await expectPage(page, "uk", "/account/player", "titles.player");
    await expect(page.locator("header.play-header")).toBeVisible();
    await expect(page.locator("footer")).toHaveCount(0);

    await page.getByRole("link", { name: t("uk", "account:account.playerSoonLink") }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/uk/account/player/player-soon");
    await expect(page.locator("main h1")).toHaveText(t("uk", "account:account.playerSoon"));
    await expect(page).toHaveTitle(`${t("uk", "titles.playerSoon")} - POLYGLOT`);

    await page.getByRole("link", { name: t("uk", "nav.backToAccount") }).click();
    await expectPage(page, "uk", "/account/home", "titles.accountHome");
    await expectSameDocument(page, javaScriptEnabled);
  },
);

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "client-side navigation needs JavaScript");

  test("a client-side navigation updates the canonical and hreflang links instead of adding more", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/de/explore?q=1");
    await markDocument(page, true);
    await page
      .getByRole("navigation", { name: t("de", "nav.main") })
      .getByRole("link", { name: t("de", "nav.subscription") })
      .click();
    await expectPage(page, "de", "/subscription", "titles.subscription");
    await expectSeoLinks(page, {
      canonical: `${baseURL}/de/subscription`,
      pathname: "/subscription",
      origin: baseURL!,
    });
    await expectSameDocument(page, true);
  });

  test("back and forward move between client-side pages without reloading", async ({ page }) => {
    await page.goto("/");
    await markDocument(page, true);
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Explore" }).click();
    await expectPage(page, "en", "/explore", "titles.explore");
    await page.goBack();
    await expectPage(page, "en", "/", "titles.home");
    await page.goForward();
    await expectPage(page, "en", "/explore", "titles.explore");
    await expectSameDocument(page, true);
  });

  learnerTest("the language switch loads the new language's translations on the client", async ({ page }) => {
    await page.goto("/account/explore");
    await markDocument(page, true);
    await page.getByLabel("Interface language").selectOption("tr");
    await expectPage(page, "tr", "/account/explore", "titles.accountExplore");
    await expect(page.locator("main")).toContainText(t("tr", "account:account.exploreIntro"));
    // Navigating on keeps Turkish.
    await page
      .locator("main")
      .getByRole("link", { name: t("tr", "titles.member") })
      .click();
    await expectPage(page, "tr", "/account/explore/member", "titles.member");
    await expectSameDocument(page, true);
  });

  test("utm_ parameters are removed from the address bar after load, other parameters stay", async ({ page }) => {
    await page.goto("/explore?utm_source=newsletter&q=cat&utm_medium=email&level=2#main");
    await expect(page).toHaveURL((url) => url.search === "?q=cat&level=2");
    const url = new URL(page.url());
    expect(url.pathname).toBe("/explore");
    expect(url.hash).toBe("#main");
    await expect(page.locator("main h1")).toHaveText("Explore");
  });

  test("an address with only utm_ parameters ends up with no query string at all", async ({ page }) => {
    await page.goto("/de/subscription?utm_campaign=spring&UTM_SOURCE=x");
    await expect(page).toHaveURL((url) => url.pathname === "/de/subscription" && url.search === "");
    expect(page.url().endsWith("?")).toBe(false);
  });
});

test("utm_ parameters never reach the canonical URL", async ({ page, baseURL }) => {
  await page.goto("/explore?utm_source=newsletter&q=cat");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/explore?q=cat`);
});
