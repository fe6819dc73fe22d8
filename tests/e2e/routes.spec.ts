/**
 * Every public route in English, German and Ukrainian, with and without JavaScript: status, title, heading, document
 * language, layout and the canonical / hreflang links.
 */
import {
  expect,
  expectDocumentLanguage,
  expectLayout,
  expectSeoLinks,
  learnerTest,
  localePath,
  MATRIX_LOCALES,
  pageTitle,
  ROUTES,
  t,
  test,
  waitForHydration,
} from "./support";

const isAccount = (pathname: string) => pathname.startsWith("/account");

for (const route of ROUTES) {
  // The account area is behind the sign-in guard: it is visited by a signed-in learner.
  const routeTest = isAccount(route.path) ? learnerTest : test;
  const who = isAccount(route.path) ? " for a signed-in learner" : "";
  const urls = MATRIX_LOCALES.map((lng) => localePath(lng, route.path)).join(", ");
  routeTest(
    `${urls} answer 200${who} with the title, heading, description, html lang, layout and SEO links of their language`,
    async ({ page, javaScriptEnabled, baseURL }) => {
      for (const lng of MATRIX_LOCALES) {
        const url = localePath(lng, route.path);
        await test.step(url, async () => {
          const response = await page.goto(url);
          expect(response?.status()).toBe(200);
          expect(new URL(page.url()).pathname).toBe(url);
          if (javaScriptEnabled) await waitForHydration(page);

          await expect(page).toHaveTitle(pageTitle(route.title(lng)));
          const heading = page.locator("main h1");
          await expect(heading).toBeVisible();
          await expect(heading).toHaveText(route.h1(lng));
          await expectDocumentLanguage(page, lng);
          await expectLayout(page, route.layout);

          const description = page.locator('meta[name="description"]');
          await expect(description).toHaveCount(1);
          await expect(description).toHaveAttribute("content", route.description(lng));

          // Prerendered pages too: their build-time origin is replaced by APP_URL when served (seo.spec.ts checks more).
          await expectSeoLinks(page, { canonical: baseURL + url, pathname: route.path, origin: baseURL! });
        });
      }
    },
  );
}

for (const lng of MATRIX_LOCALES) {
  const from = localePath(lng, "/account");
  const to = localePath(lng, "/account/home");
  learnerTest(`${from} redirects a signed-in learner to ${to}, the account home`, async ({ page }) => {
    const response = await page.goto(from);
    expect(response?.status()).toBe(200);
    expect(response?.request().redirectedFrom()?.url()).toMatch(new RegExp(`${from}$`));
    expect(new URL(page.url()).pathname).toBe(to);
    await expect(page.locator("main h1")).toHaveText(ROUTES.find((r) => r.path === "/account/home")!.h1(lng));
  });
}

for (const lng of MATRIX_LOCALES) {
  const form = localePath(lng, "/form");
  test(`the account area sends a signed-out visitor to ${form}`, async ({ page, request }) => {
    for (const pathname of [
      "/account",
      "/account/home",
      "/account/explore",
      "/account/explore/member",
      "/account/explore/public",
      "/account/player",
      "/account/player/player-soon",
      "/account/profile",
      "/account/profile/delete",
      "/account/terms/abc",
    ]) {
      const response = await request.get(localePath(lng, pathname), { maxRedirects: 0 });
      expect(response.status(), pathname).toBe(302);
      expect(response.headers()["location"], pathname).toBe(form);
    }
    await page.goto(localePath(lng, "/account/home"));
    expect(new URL(page.url()).pathname).toBe(form);
    await expect(page.locator("main h1")).toHaveText(t(lng, "titles.form"));
  });
}
