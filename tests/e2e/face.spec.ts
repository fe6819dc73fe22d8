/**
 * Phones, themes and accessibility: every route at 360x740 (also 320 and 390 wide) without sideways scrolling, with a
 * one-row header of at most 64 px and main controls of at least 44x44 px, and no axe (WCAG 2.1 AA) violation in the
 * light or the dark theme, on a phone and at 1280 px (the styleguide and the states a page reaches by acting on it
 * included); the theme choice in the footer, with and without JavaScript. Checks are grouped per page.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { forwardedFor, linkIn, mailFor, uniqueAddress } from "./mail";
import { expect, learnerTest, ROUTES, t, test, waitForHydration } from "./support";

const PHONE = { width: 360, height: 740 };
const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
test.use({ viewport: PHONE, extraHTTPHeaders: forwardedFor() });

/** The controls a learner taps: header, footer, buttons, fields and the navigation-like links of the page. */
const CONTROLS = [
  "header a",
  "header button",
  "header summary",
  "header select",
  "footer a",
  "footer button",
  "footer select",
  "main button",
  "main .button",
  "main select",
  "main textarea",
  "main summary",
  "main nav a",
  "main .actions a",
  "main .stage-counts a",
  "main .link-list a",
  "main td a",
  "main input:not([type=hidden]):not([type=checkbox]):not([type=radio])",
].join(", ");

async function smallControls(page: Page) {
  return page.evaluate((selector) => {
    return [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((element) => element.checkVisibility({ visibilityProperty: true }) && !element.closest(".honeypot"))
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 43.5 || box.height < 43.5)
      .map(
        ({ element, box }) => `${element.outerHTML.slice(0, 90)} ${Math.round(box.width)}x${Math.round(box.height)}`,
      );
  }, CONTROLS);
}

/** No sideways scrolling at 320, 360 and 390 px, a header of one row, and no main control under 44x44 px (menu open too). */
async function expectPhoneLayout(page: Page) {
  for (const width of [320, 390, 360]) {
    await page.setViewportSize({ width, height: PHONE.height });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `document width at ${width} px`).toBe(
      width,
    );
  }
  const header = await page.locator("header").first().boundingBox();
  expect(header!.height, "header height").toBeLessThanOrEqual(64);
  expect(await smallControls(page), "controls under 44x44 px").toEqual([]);
  const menu = page.locator("details.site-menu > summary");
  if ((await menu.count()) > 0) {
    await menu.click();
    await expect(page.locator("details.site-menu")).toHaveAttribute("open", "");
    expect(await smallControls(page), "menu controls under 44x44 px").toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), "document width, menu open").toBe(
      PHONE.width,
    );
    await menu.click();
  }
}

async function expectNoAxeViolations(page: Page) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
    const found = violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
    expect(found, `axe violations in the ${colorScheme} theme`).toEqual([]);
  }
}

async function open(page: Page, path: string, javaScriptEnabled: boolean) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  if (javaScriptEnabled) await waitForHydration(page);
}

const isAccount = (path: string) => path.startsWith("/account");

for (const route of ROUTES) {
  const pageTest = isAccount(route.path) ? learnerTest : test;
  pageTest(`${route.path} fits a phone and passes axe in light and dark`, async ({ page, javaScriptEnabled }) => {
    test.setTimeout(60_000);
    await open(page, route.path, javaScriptEnabled);
    await expectPhoneLayout(page);
    // axe runs scripts in the page: once, with JavaScript, is enough for a server-rendered document.
    if (javaScriptEnabled) await expectNoAxeViolations(page);
  });
}

test("the 404 page fits a phone and passes axe in light and dark", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  consoleGuard.allow404();
  await page.goto("/no-such-page");
  if (javaScriptEnabled) await waitForHydration(page);
  await expectPhoneLayout(page);
  if (javaScriptEnabled) await expectNoAxeViolations(page);
});

/** A learner with the terms of a public list: tables with rows and a review with cards. */
async function learnerWithTerms(page: Page, javaScriptEnabled: boolean) {
  const email = uniqueAddress("face");
  await page.goto("/form");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator("main").getByLabel(t("en", "pages:form.emailLabel")).fill(email);
  await page
    .locator("main")
    .getByRole("button", { name: t("en", "pages:form.submit") })
    .click();
  await expect(page.locator(".sent-panel")).toBeVisible();
  await page.goto(linkIn(await mailFor(email)));
  await page.getByRole("button", { name: t("en", "pages:confirm.submit") }).click();
  await expect(page).toHaveURL(/\/account\/home$/);
  await page.goto("/account/explore/public?language=en&level=beginner");
  await page.getByRole("button", { name: t("en", "lists:public.addAll") }).click();
  await expect(page.getByText(t("en", "lists:public.owned")).first()).toBeVisible();
}

test("pages with rows and cards fit a phone and pass axe: my terms, a term, review, explore", async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(150_000);
  await learnerWithTerms(page, javaScriptEnabled);
  const member = "/account/explore/member";
  await open(page, member, javaScriptEnabled);
  // A page of the list's hundred terms (PAGE_SIZE).
  await expect(page.locator("tbody tr")).toHaveCount(50);
  const termPath = new URL(
    await page
      .locator("tbody a")
      .first()
      .evaluate((link) => (link as HTMLAnchorElement).href),
  ).pathname;
  // The public lists with rows are covered by the /explore and /account/explore/public route checks.
  for (const path of [
    member,
    "/de/explore",
    termPath,
    "/account/terms/new",
    "/account/review",
    "/account/review?reveal=1",
  ]) {
    await test.step(path, async () => {
      await open(page, path, javaScriptEnabled);
      await expectPhoneLayout(page);
      if (javaScriptEnabled) await expectNoAxeViolations(page);
    });
  }
});

test("the main call to action of the home page is above the fold on a phone", async ({ page, javaScriptEnabled }) => {
  await open(page, "/", javaScriptEnabled);
  const submit = await page
    .locator("main")
    .getByRole("button", { name: t("en", "pages:form.submit") })
    .boundingBox();
  expect(submit!.y + submit!.height).toBeLessThanOrEqual(PHONE.height);
});

test("on a phone the footer's switches keep clear of the tagline, and the landing demo's panel covers nothing", async ({
  page,
  javaScriptEnabled,
}) => {
  for (const lng of ["de", "uk", "fr"] as const) {
    await open(page, lng === "de" ? "/de" : `/${lng}`, javaScriptEnabled);
    const lastSwitch = (await page.locator(".site-footer .theme-switch").boundingBox())!;
    const tagline = (await page.locator(".site-footer .footer-small p").first().boundingBox())!;
    expect(tagline.y - (lastSwitch.y + lastSwitch.height), `${lng}: room above the tagline`).toBeGreaterThanOrEqual(16);
    // Each switch's label has a line of its own; its select and button follow it.
    const label = (await page.locator(".site-footer .theme-switch label").boundingBox())!;
    const select = (await page.locator(".site-footer .theme-switch select").boundingBox())!;
    expect(select.y, `${lng}: select under its label`).toBeGreaterThanOrEqual(label.y + label.height);
  }
  // The demo's word panel is part of the picture, not the reader's bottom sheet over the sign-in form.
  const panel = page.locator(".reader-demo .word-panel");
  expect(await panel.evaluate((element) => getComputedStyle(element).position)).toBe("static");
});

test("the theme choice in the footer is applied by the server and remembered, with and without JavaScript", async ({
  page,
  context,
  javaScriptEnabled,
}) => {
  await page.emulateMedia({ colorScheme: "light" });
  await open(page, "/explore", javaScriptEnabled);
  const html = page.locator("html");
  await expect(html).toHaveAttribute("data-theme", "system");
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(await background()).toBe("rgb(255, 255, 255)");

  const theme = page.locator("footer").getByLabel(t("en", "theme.label"));
  await theme.selectOption("dark");
  if (!javaScriptEnabled)
    await page
      .locator("footer")
      .getByRole("button", { name: t("en", "theme.submit") })
      .click();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await expect(page).toHaveURL(/\/explore$/);
  expect(await background()).toBe("rgb(20, 23, 29)");
  const cookie = (await context.cookies()).find((entry) => entry.name === "theme");
  // React Router's cookie encoding: base64 of the JSON string.
  expect(JSON.parse(atob(decodeURIComponent(cookie!.value)))).toBe("dark");
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);

  // Remembered: a prerendered page is rendered in the chosen theme as well, in another language.
  const response = await page.goto("/de/company/privacy");
  expect(await response!.text()).toContain('data-theme="dark"');
  expect(await background()).toBe("rgb(20, 23, 29)");

  // "System" follows the device again.
  await page.locator("footer").getByLabel(t("de", "theme.label")).selectOption("system");
  if (!javaScriptEnabled)
    await page
      .locator("footer")
      .getByRole("button", { name: t("de", "theme.submit") })
      .click();
  await expect(html).toHaveAttribute("data-theme", "system");
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await background()).toBe("rgb(20, 23, 29)");
  await page.emulateMedia({ colorScheme: "light" });
  expect(await background()).toBe("rgb(255, 255, 255)");
});

test("an unknown theme is refused with a translated 400 page", async ({ request, javaScriptEnabled }) => {
  test.skip(
    !javaScriptEnabled,
    "HTTP-level check, identical with and without JavaScript: it runs in the js-on project only",
  );
  const response = await request.post("/theme", { form: { theme: "neon", redirectTo: "/" }, maxRedirects: 0 });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain(t("en", "errors.badRequest"));
  const unsafe = await request.post("/theme", {
    form: { theme: "dark", redirectTo: "//evil.example/x" },
    maxRedirects: 0,
  });
  expect(unsafe.status()).toBe(302);
  expect(unsafe.headers()["location"]).toBe("/");
});

test("with reduced motion and no JavaScript a toast still hides after five seconds", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(javaScriptEnabled, "with JavaScript a timer removes the toast; this checks the stylesheet alone");
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/form");
  await page.locator("main").getByLabel(t("en", "pages:form.emailLabel")).fill("learner@localhost");
  await page
    .locator("main")
    .getByRole("button", { name: t("en", "pages:form.submit") })
    .click();
  const toast = page.locator(".toast");
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden({ timeout: 8_000 });
});

learnerTest(
  "the study loop's new states pass axe: a review's summary, a reader's word panel",
  async ({ page, javaScriptEnabled }) => {
    learnerTest.skip(!javaScriptEnabled, "axe runs scripts in the page: once, with JavaScript, is enough");
    await open(page, "/account/terms/new", true);
    await page.getByLabel(t("en", "learning:term.text"), { exact: true }).fill("lucid");
    await page.getByLabel(t("en", "learning:term.meaning"), { exact: true }).fill("clear");
    await page.getByRole("button", { name: t("en", "learning:term.create") }).click();
    await expect(page.locator("h1")).toHaveText("lucid");
    await open(page, "/account/review?reveal=1", true);
    await page.getByRole("button", { name: /Easy/ }).click();
    await expect(page.locator(".review-summary")).toBeVisible();
    await expectNoAxeViolations(page);
    await open(page, "/account/texts/new", true);
    await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill("Axe");
    await page.getByLabel(t("en", "reading:form.body"), { exact: true }).fill("A lucid and quiet morning.");
    await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
    await waitForHydration(page);
    await page.locator("a.word", { hasText: /^quiet$/ }).click();
    await expect(page.locator(".word-panel")).toBeVisible();
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectNoAxeViolations(page);
  },
);

test("pages outside the route table fit a phone and pass axe: the styleguide, a sample text, the sign-in form's states", async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(120_000);
  for (const path of ["/styleguide", "/texts/en-my-street", "/de/texts/en-my-street"]) {
    await test.step(path, async () => {
      await open(page, path, javaScriptEnabled);
      await expectPhoneLayout(page);
      if (javaScriptEnabled) await expectNoAxeViolations(page);
    });
  }
  await test.step("/form with a refused address and its toast", async () => {
    await open(page, "/form", javaScriptEnabled);
    await page.locator("main").getByLabel(t("en", "pages:form.emailLabel")).fill("learner@localhost");
    await page
      .locator("main")
      .getByRole("button", { name: t("en", "pages:form.submit") })
      .click();
    await expect(page.locator(".toast")).toBeVisible();
    await expectPhoneLayout(page);
    if (javaScriptEnabled) await expectNoAxeViolations(page);
  });
});

test("public pages pass axe at 1280 px too, in light and dark", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "axe runs scripts in the page: once, with JavaScript, is enough");
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const path of [
    ...ROUTES.map((route) => route.path).filter((p) => !isAccount(p)),
    "/styleguide",
    "/texts/en-my-street",
  ]) {
    await test.step(path, async () => {
      await open(page, path, true);
      await expectNoAxeViolations(page);
    });
  }
});

learnerTest(
  "signed-in pages pass axe at 1280 px, and a spent sign-in link's page on a phone",
  async ({ page, javaScriptEnabled }) => {
    test.setTimeout(150_000);
    await test.step("/confirm with a spent link", async () => {
      await open(page, `/confirm?token=${"x".repeat(43)}`, javaScriptEnabled);
      await expect(page.locator("main")).toContainText(t("en", "pages:confirm.spentSignedIn"));
      await expectPhoneLayout(page);
      if (javaScriptEnabled) await expectNoAxeViolations(page);
    });
    for (const path of ["/account/texts/new", "/texts/en-my-street"]) {
      await test.step(path, async () => {
        await open(page, path, javaScriptEnabled);
        await expectPhoneLayout(page);
        if (javaScriptEnabled) await expectNoAxeViolations(page);
      });
    }
    if (!javaScriptEnabled) return;
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const path of [...ROUTES.map((route) => route.path).filter(isAccount), "/styleguide"]) {
      await test.step(`${path} at 1280 px`, async () => {
        await open(page, path, true);
        await expectNoAxeViolations(page);
      });
    }
  },
);
