/**
 * Permanent moves: the English prefix, the route rules and the one external rule. Status and Location are read from the
 * raw response; the browser then follows the internal ones.
 */
import { expect, HTTP_ONLY, t, test, waitForHydration } from "./support";

const FSRS_URL = "https://github.com/open-spaced-repetition/fsrs4anki/wiki/ABC-of-FSRS";

const INTERNAL: [from: string, status: number, to: string][] = [
  ["/en/explore", 301, "/explore"],
  ["/en/explore?q=1&utm_source=x", 301, "/explore?q=1&utm_source=x"],
  ["/en/account/home", 301, "/account/home"],
  ["/en", 301, "/"],
  ["/login", 301, "/form"],
  ["/login?next=%2Fexplore", 301, "/form?next=%2Fexplore"],
  ["/signin", 301, "/form"],
  ["/de/login", 301, "/de/form"],
  ["/privacy", 301, "/company/privacy"],
  ["/uk/privacy", 301, "/uk/company/privacy"],
  ["/terms", 301, "/company/terms-of-use"],
  ["/pricing", 301, "/subscription"],
  ["/crowdfunding", 301, "/crowdfunding-campaign"],
];

test.describe("status and Location", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, HTTP_ONLY);

  for (const [from, status, to] of INTERNAL) {
    test(`${from} answers ${status} with Location ${to}`, async ({ request }) => {
      const response = await request.get(from, { maxRedirects: 0 });
      expect(response.status()).toBe(status);
      expect(response.headers()["location"]).toBe(to);
    });
  }

  test("/en?x=1 redirects to /?x=1 (English keeps the query without a prefix)", async ({ request }) => {
    const response = await request.get("/en?x=1", { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers()["location"]).toBe("/?x=1");
  });

  for (const from of ["/about/fsrs", "/de/about/fsrs"]) {
    test(`${from} answers 302 to the external FSRS article (not followed)`, async ({ request }) => {
      const response = await request.get(from, { maxRedirects: 0 });
      expect(response.status()).toBe(302);
      expect(response.headers()["location"]).toBe(FSRS_URL);
    });
  }
});

test("the browser following /login lands on the sign-in page", async ({ page }) => {
  const response = await page.goto("/login");
  expect(response?.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe("/form");
  await expect(page.locator("main h1")).toHaveText("Sign in");
  await expect(page).toHaveTitle("Sign in - POLYGLOT");
});

test("the browser following /de/privacy lands on the German privacy page", async ({ page }) => {
  await page.goto("/de/privacy");
  expect(new URL(page.url()).pathname).toBe("/de/company/privacy");
  await expect(page.locator("main h1")).toHaveText(t("de", "titles.privacy"));
});

test("the browser following /en/explore?q=1 lands on /explore?q=1", async ({ page, javaScriptEnabled }) => {
  await page.goto("/en/explore?q=1");
  if (javaScriptEnabled) await waitForHydration(page);
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/explore?q=1");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});
