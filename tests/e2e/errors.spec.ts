/**
 * Not-found pages: a real 404 status, the message in the visitor's language inside the layout, and a bare text answer
 * for bots.
 */
import {
  BOT_USER_AGENT,
  expect,
  expectDocumentLanguage,
  expectLayout,
  HTTP_ONLY,
  learnerTest,
  notFoundTitle,
  t,
  test,
  waitForHydration,
  type Layout,
  type Locale,
} from "./support";

const TERM_ID = "3f2c8a4e-9b1d-4c6a-8e2f-1a2b3c4d5e6f";

type NotFoundCase = {
  url: string;
  lng: Locale;
  key: "errors.notFound" | "errors.invalidParam";
  layout: Layout;
  why: string;
};

const CASES: NotFoundCase[] = [
  {
    url: "/nope/x",
    lng: "en",
    key: "errors.notFound",
    layout: "default",
    why: "an unknown first segment is an unknown locale prefix",
  },
  { url: "/xyz", lng: "en", key: "errors.notFound", layout: "default", why: "a single unknown segment" },
  {
    url: "/de/nope",
    lng: "de",
    key: "errors.notFound",
    layout: "default",
    why: "an unknown page under a known locale",
  },
  {
    url: "/uk/nope/deeper",
    lng: "uk",
    key: "errors.notFound",
    layout: "default",
    why: "an unknown nested page under a known locale",
  },
  {
    url: "/account/terms/abc",
    lng: "en",
    key: "errors.invalidParam",
    layout: "account",
    why: "a term id that is not a UUID",
  },
  {
    url: "/de/account/terms/abc",
    lng: "de",
    key: "errors.invalidParam",
    layout: "account",
    why: "a malformed term id in German",
  },
  {
    url: `/account/terms/${TERM_ID}`,
    lng: "en",
    key: "errors.notFound",
    layout: "account",
    why: "a well-formed term id with no term",
  },
  {
    url: `/uk/account/terms/${TERM_ID}`,
    lng: "uk",
    key: "errors.notFound",
    layout: "account",
    why: "a missing term in Ukrainian",
  },
];

for (const c of CASES) {
  // Term pages are in the account area, behind the sign-in guard: a signed-in learner asks for them.
  const caseTest = c.url.includes("/account/") ? learnerTest : test;
  caseTest(
    `${c.url} (${c.why}) answers 404 with "${c.key}" in ${c.lng} inside the layout`,
    async ({ page, consoleGuard, javaScriptEnabled }) => {
      consoleGuard.allow404();
      const response = await page.goto(c.url);
      expect(response?.status()).toBe(404);
      expect(response?.headers()["content-type"]).toContain("text/html");
      if (javaScriptEnabled) await waitForHydration(page);

      // A short heading; the spec's message with the whole address below it.
      const heading = page.locator("main h1");
      await expect(heading).toBeVisible();
      await expect(heading).toHaveText(t(c.lng, "errors.notFoundTitle"));
      await expect(page.locator("main .error-path")).toHaveText(t(c.lng, c.key, { path: c.url }));
      await expect(page).toHaveTitle(notFoundTitle(c.lng));
      await expectDocumentLanguage(page, c.lng);
      await expectLayout(page, c.layout);
      await expect(page.locator("main")).toContainText(t(c.lng, "errors.notFoundHint"));
    },
  );
}

test("the English and the validation 404 messages differ only in capitalisation", async () => {
  // Guards the two expected headings above against being the same string by accident.
  expect(t("en", "errors.notFound", { path: "/p" })).toBe("Page not found: /p");
  expect(t("en", "errors.invalidParam", { path: "/p" })).toBe("Page Not Found: /p");
  expect(notFoundTitle("en")).toBe("404 Page Not Found - POLYGLOT");
});

test("the not-found page links back to the home page and to explore in its language", async ({
  page,
  consoleGuard,
  javaScriptEnabled,
}) => {
  consoleGuard.allow404();
  await page.goto("/de/nope");
  if (javaScriptEnabled) await waitForHydration(page);
  await page
    .locator("main")
    .getByRole("link", { name: t("de", "errors.explore") })
    .click();
  await expect(page).toHaveURL(/\/de\/explore$/);
  await expect(page.locator("main h1")).toHaveText(t("de", "titles.explore"));
  await page.goBack();
  await expect(page).toHaveURL(/\/de\/nope$/);
  await page
    .locator("main")
    .getByRole("link", { name: t("de", "errors.backHome") })
    .click();
  await expect(page).toHaveURL(/\/de$/);
  await expect(page.locator("main h1")).toHaveText(t("de", "titles.home"));
});

test.describe("bots", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, HTTP_ONLY);

  for (const url of ["/nope/x", "/xyz", "/de/nope"]) {
    test(`a bot asking for ${url} gets 404 with a minimal text body, not the error page`, async ({ request }) => {
      const response = await request.get(url, { headers: { "User-Agent": BOT_USER_AGENT } });
      expect(response.status()).toBe(404);
      expect(response.headers()["content-type"]).toMatch(/^text\/plain/);
      const body = await response.text();
      expect(body.trim()).toBe("404");
      expect(body).not.toContain("<html");
    });
  }

  test("a bot still gets the full HTML of an existing page", async ({ request }) => {
    const response = await request.get("/explore", { headers: { "User-Agent": BOT_USER_AGENT } });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^text\/html/);
    expect(await response.text()).toContain("<h1>Explore</h1>");
  });

  test("a regular browser asking for an unknown page gets the HTML error page", async ({ request }) => {
    const response = await request.get("/nope/x");
    expect(response.status()).toBe(404);
    expect(await response.text()).toContain("Page not found: /nope/x");
  });
});
