/**
 * Languages: every locale renders, the bare root sends visitors to their language, the header's language switch
 * works with and without JavaScript, and no other address changes language by itself.
 */
import type { Page } from "@playwright/test";
import {
  BOT_USER_AGENT,
  expect,
  expectDocumentLanguage,
  HTTP_ONLY,
  learnerTest,
  localeCookie,
  localePath,
  LOCALES,
  MATRIX_LOCALES,
  pageTitle,
  t,
  test,
  waitForHydration,
  type Locale,
} from "./support";

const YEAR_SECONDS = 365 * 24 * 60 * 60;

// en, de and uk are visited on every route by routes.spec.ts; the other locales get their home page checked here.
for (const lng of LOCALES.filter((l) => !MATRIX_LOCALES.includes(l))) {
  test(`the home page renders in ${lng} at ${localePath(lng, "/")}`, async ({ page }) => {
    const response = await page.goto(localePath(lng, "/"));
    expect(response?.status()).toBe(200);
    await expectDocumentLanguage(page, lng);
    await expect(page).toHaveTitle(pageTitle(t(lng, "titles.home")));
    await expect(page.locator("main h1")).toHaveText(t(lng, "titles.home"));
    await expect(page.locator(".tagline")).toHaveText(t(lng, "tagline"));
    const nav = page.getByRole("navigation", { name: t(lng, "nav.main") });
    await expect(nav.getByRole("link", { name: t(lng, "nav.explore") })).toHaveAttribute(
      "href",
      localePath(lng, "/explore"),
    );
    await expect(page.locator("footer")).toContainText(t(lng, "footer.madeFor"));
  });
}

test.describe("the bare root", () => {
  test.describe("with a browser preferring Ukrainian (uk-UA)", () => {
    test.use({ locale: "uk-UA" });

    test("/ redirects (302) to /uk and renders Ukrainian", async ({ page }) => {
      const response = await page.goto("/");
      expect(response?.request().redirectedFrom()?.url()).toMatch(/\/$/);
      expect((await response?.request().redirectedFrom()?.response())?.status()).toBe(302);
      expect(new URL(page.url()).pathname).toBe("/uk");
      await expectDocumentLanguage(page, "uk");
      await expect(page.locator("main h1")).toHaveText(t("uk", "titles.home"));
    });

    test("/explore is not redirected and stays English", async ({ page }) => {
      const response = await page.goto("/explore");
      expect(response?.status()).toBe(200);
      expect(response?.request().redirectedFrom()).toBeNull();
      expect(new URL(page.url()).pathname).toBe("/explore");
      await expectDocumentLanguage(page, "en");
    });
  });

  test("/ keeps its query string when it redirects to the preferred language", async ({
    request,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, HTTP_ONLY);
    const response = await request.get("/?ref=mail&q=1", {
      headers: { "Accept-Language": "de-CH,de;q=0.9,en;q=0.5" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe("/de?ref=mail&q=1");
    expect(response.headers()["vary"]).toMatch(/Accept-Language/i);
  });

  test("/ stays English for a browser preferring English, or an unsupported language", async ({
    request,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, HTTP_ONLY);
    for (const header of ["en-US,en;q=0.9,uk;q=0.5", "pt-BR,ja;q=0.8"]) {
      const response = await request.get("/", { headers: { "Accept-Language": header }, maxRedirects: 0 });
      expect(response.status(), header).toBe(200);
      expect(await response.text()).toContain('<html lang="en"');
    }
  });

  test("/ never redirects a bot, whatever language it accepts", async ({ request, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, HTTP_ONLY);
    const response = await request.get("/", {
      headers: { "Accept-Language": "uk-UA", "User-Agent": BOT_USER_AGENT },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain('<html lang="en"');
  });

  test("other addresses never redirect by language, even with a lng cookie", async ({ request, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, HTTP_ONLY);
    for (const url of ["/explore", "/company/privacy", "/form", "/de/explore"]) {
      const response = await request.get(url, {
        headers: { "Accept-Language": "fr", Cookie: "lng=InVrIg%3D%3D" },
        maxRedirects: 0,
      });
      expect(response.status(), url).toBe(200);
    }
  });
});

/** Chooses a language in the header switch: with JavaScript the select submits itself, without it the button does. */
async function switchLanguage(page: Page, javaScriptEnabled: boolean, from: Locale, to: Locale) {
  const select = page.getByLabel(t(from, "language.label"));
  await expect(select).toHaveValue(from);
  await select.selectOption(to);
  if (!javaScriptEnabled) await page.getByRole("button", { name: t(from, "language.submit") }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", to);
}

test.describe("the language switch", () => {
  test("is a labelled form posting lng to /locale, with all seven languages and a submit button without JavaScript", async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.goto("/explore");
    const form = page.locator("form.language-switch");
    await expect(form).toHaveAttribute("method", /post/i);
    await expect(form).toHaveAttribute("action", "/locale");
    const select = page.getByLabel("Interface language");
    await expect(select).toHaveAttribute("name", "lng");
    await expect(select.locator("option")).toHaveCount(7);
    expect(
      await select.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual([...LOCALES]);
    // With JavaScript a change submits the form, and the button goes once the page is hydrated.
    if (javaScriptEnabled) await waitForHydration(page);
    await expect(form.getByRole("button", { name: "Change language" })).toHaveCount(javaScriptEnabled ? 0 : 1);
  });

  test("moves /explore?q=1 to /uk/explore?q=1 and remembers the choice for a year", async ({
    page,
    context,
    javaScriptEnabled,
  }) => {
    await page.goto("/explore?q=1");
    if (javaScriptEnabled) {
      await waitForHydration(page);
      await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
    }
    await switchLanguage(page, javaScriptEnabled, "en", "uk");

    await expect(page).toHaveURL(/\/uk\/explore\?q=1$/);
    await expect(page.locator("main h1")).toHaveText(t("uk", "titles.explore"));
    await expect(page).toHaveTitle(pageTitle(t("uk", "titles.explore")));
    await expect(page.getByLabel(t("uk", "language.label"))).toHaveValue("uk");
    await expect(
      page.getByRole("navigation", { name: t("uk", "nav.main") }).getByRole("link", { name: t("uk", "nav.explore") }),
    ).toBeVisible();
    if (javaScriptEnabled) {
      // The switch is a client-side navigation: the document was not reloaded.
      expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
    }

    const cookie = await localeCookie(context);
    expect(cookie).toBeDefined();
    expect(cookie!.path).toBe("/");
    expect(cookie!.httpOnly).toBe(true);
    expect(cookie!.sameSite).toBe("Lax");
    const lifetime = cookie!.expires - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(YEAR_SECONDS - 24 * 3600);
    expect(lifetime).toBeLessThanOrEqual(YEAR_SECONDS + 60);
  });

  test("the remembered language sends the bare root there, and switching back to English stops it", async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.goto("/subscription");
    if (javaScriptEnabled) await waitForHydration(page);
    await switchLanguage(page, javaScriptEnabled, "en", "de");
    await expect(page).toHaveURL(/\/de\/subscription$/);

    await page.goto("/");
    expect(new URL(page.url()).pathname).toBe("/de");
    await expect(page.locator("main h1")).toHaveText(t("de", "titles.home"));

    if (javaScriptEnabled) await waitForHydration(page);
    await switchLanguage(page, javaScriptEnabled, "de", "en");
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page.locator("main h1")).toHaveText(t("en", "titles.home"));

    await page.goto("/");
    expect(new URL(page.url()).pathname).toBe("/");
    await expectDocumentLanguage(page, "en");
  });

  learnerTest(
    "works in the account area for a signed-in learner, keeping the page",
    async ({ page, javaScriptEnabled }) => {
      await page.goto("/de/account/explore/member");
      if (javaScriptEnabled) await waitForHydration(page);
      await switchLanguage(page, javaScriptEnabled, "de", "zh");
      await expect(page).toHaveURL(/\/zh\/account\/explore\/member$/);
      await expect(page.locator("main h1")).toHaveText(t("zh", "titles.member"));
    },
  );

  test("on a not-found page it keeps the address and translates the message", async ({
    page,
    consoleGuard,
    javaScriptEnabled,
  }) => {
    consoleGuard.allow404();
    await page.goto("/de/nope");
    if (javaScriptEnabled) await waitForHydration(page);
    await switchLanguage(page, javaScriptEnabled, "de", "fr");
    await expect(page).toHaveURL(/\/fr\/nope$/);
    await expect(page.locator("main h1")).toHaveText(t("fr", "errors.notFoundTitle"));
    await expect(page.locator("main .error-path")).toHaveText(t("fr", "errors.notFound", { path: "/fr/nope" }));
    await expect(page).toHaveTitle(pageTitle(`404 ${t("fr", "errors.notFoundTitle")}`));
  });

  test("rejects an unsupported language with 400 and sets no cookie", async ({ request, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, HTTP_ONLY);
    const response = await request.post("/locale", { form: { lng: "xx", redirectTo: "/explore" }, maxRedirects: 0 });
    expect(response.status()).toBe(400);
    expect(response.headers()["set-cookie"]).toBeUndefined();
  });

  test("never redirects to another site, whatever redirectTo says", async ({ request, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, HTTP_ONLY);
    for (const target of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "/%2F%2Fevil.example"]) {
      const response = await request.post("/locale", { form: { lng: "de", redirectTo: target }, maxRedirects: 0 });
      expect(response.status(), target).toBe(302);
      const location = response.headers()["location"] ?? "";
      expect(location.startsWith("/") && !location.startsWith("//"), `${target} -> ${location}`).toBe(true);
      expect(new URL(location, "http://127.0.0.1").host, target).toBe("127.0.0.1");
    }
  });
});

test("the language menu's 中文 is rendered in a Simplified Chinese font the platform has", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "fonts do not depend on JavaScript");
  await page.goto("/explore");
  await page.locator(".language-menu summary").click();
  const chinese = page.locator('.language-menu a[lang="zh"]');
  await expect(chinese).toHaveText("中文");
  // The stack names each platform's Simplified Chinese font, Linux's among them, rather than leaving it to fallback.
  const stack = await chinese.evaluate((link) => getComputedStyle(link).fontFamily);
  for (const family of ["PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC"]) expect(stack).toContain(family);
  // The fonts Chromium drew the text with (the CI image has Debian's fonts-noto-cjk).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("DOM.enable");
  await cdp.send("CSS.enable");
  const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
  const { nodeId } = await cdp.send("DOM.querySelector", {
    nodeId: root.nodeId,
    selector: '.language-menu a[lang="zh"]',
  });
  const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
  expect(fonts.map((font) => font.familyName)).toEqual(["Noto Sans CJK SC"]);
});
