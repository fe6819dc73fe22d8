/**
 * The first sign-in: My home's welcome (study language, level, new terms per day) with and without JavaScript, its
 * "Skip", a sign-in with a return path, and My home's next step afterwards; axe on the welcome in light and dark (with
 * JavaScript, which axe needs), a server-rendered error with and without.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { forwardedFor, linkIn, mailFor, uniqueAddress } from "./mail";
import { expect, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const main = (page: Page) => page.locator("main");

async function expectNoAxeViolations(page: Page, what: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
    const found = violations.map((v) => `${v.id}: ${v.nodes.map((node) => node.target.join(" ")).join(", ")}`);
    expect(found, `axe violations, ${what}, ${colorScheme}`).toEqual([]);
  }
}

async function expectWelcome(page: Page) {
  await expect(main(page).locator("h1")).toHaveText(t("en", "learning:welcome.title"));
  await expect(main(page).getByLabel(t("en", "learning:welcome.language"))).toBeVisible();
  await expect(main(page).getByText(t("en", "learning:home.stagesTitle"))).toHaveCount(0);
}

test("first sign-in: the welcome, answered, leads to My home with one next step", async ({
  page,
  javaScriptEnabled,
}) => {
  await signInFresh(page, javaScriptEnabled, "welcome", { welcome: "keep" });
  await expectWelcome(page);
  // No language is guessed; the most studied come first.
  const language = main(page).getByLabel(t("en", "learning:welcome.language"));
  await expect(language).toHaveValue("");
  await expect(language.locator("optgroup").first()).toHaveAttribute("label", t("en", "learning:welcome.popular"));
  await expect(language.locator("optgroup").first().locator("option").first()).toHaveText("English");
  // The daily limit's default from the settings.
  await expect(main(page).getByLabel(t("en", "learning:settings.newPerDay"))).toHaveValue("20");

  await language.selectOption("de");
  await main(page)
    .getByRole("radio", { name: t("en", "lists:levels.elementary") })
    .check();
  await main(page).getByLabel(t("en", "learning:settings.newPerDay")).fill("12");
  const start = main(page).getByRole("button", { name: t("en", "learning:welcome.start") });
  if (javaScriptEnabled) {
    // No reload: a marker on the window survives; the form shows that it is being sent while the answer is slow.
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = "kept"));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/account/home.data*", async (route) => {
      await held;
      await route.continue();
    });
    await start.click();
    await expect(main(page).locator("form.welcome-card")).toHaveAttribute("aria-busy", "true");
    await expect(main(page).getByRole("button", { name: t("en", "learning:welcome.starting") })).toBeDisabled();
    release();
    await expect(main(page).locator("h1")).toHaveText(t("en", "titles.accountHome"));
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("kept");
    await page.unroute("**/account/home.data*");
  } else {
    await start.click();
    await expect(main(page).locator("h1")).toHaveText(t("en", "titles.accountHome"));
  }
  await expect(page).toHaveURL(/\/account\/home$/);
  await expect(page.getByRole("status")).toContainText(t("en", "learning:welcome.saved.title"));
  await expect(main(page)).toContainText(t("en", "learning:studyLanguage.current", { language: "German" }));

  // One next step leads the page: the public list at the chosen level, the only large button.
  const next = main(page).locator(".next-action");
  await expect(next.locator("h2")).toHaveText(t("en", "learning:next.title"));
  await expect(next).toContainText(
    t("en", "learning:next.listLead", { language: "German", level: t("en", "lists:levels.elementary") }),
  );
  await expect(main(page).locator(".button-large")).toHaveCount(1);
  await next.getByRole("link", { name: t("en", "learning:next.openList") }).click();
  await expect(page).toHaveURL(/\/account\/explore\/public\?language=de&level=elementary$/);
  await expect(main(page).locator("h1")).toHaveText(t("en", "titles.public"));

  // The answers are where the rest of the app reads them.
  await page.goto("/account/settings");
  await expect(main(page).getByLabel(t("en", "learning:settings.newPerDay"))).toHaveValue("12");
  await page.goto("/account/home");
  await expect(main(page).getByLabel(t("en", "learning:level.label"))).toHaveValue("elementary");
});

test("skipping the welcome keeps the defaults and leads to the Beginner list", async ({ page, javaScriptEnabled }) => {
  await signInFresh(page, javaScriptEnabled, "welcome-skip", { welcome: "keep" });
  await expectWelcome(page);
  // "Skip" works with the required language still empty (it sends the form without checking it).
  await main(page)
    .getByRole("button", { name: t("en", "learning:welcome.skip") })
    .click();
  await expect(main(page).locator("h1")).toHaveText(t("en", "titles.accountHome"));
  await expect(main(page).locator(".next-action")).toContainText(
    t("en", "learning:next.listLead", { language: "English", level: t("en", "lists:levels.beginner") }),
  );
  await page.reload();
  await expect(main(page).locator("h1")).toHaveText(t("en", "titles.accountHome"));
  await page.goto("/account/settings");
  await expect(main(page).getByLabel(t("en", "learning:settings.newPerDay"))).toHaveValue("20");
});

test("a sign-in with a return path lands on it; My home still shows the welcome", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = uniqueAddress("welcome-return");
  await page.goto("/account/explore/member?q=haus");
  await expect(page).toHaveURL(/\/form$/);
  if (javaScriptEnabled) await waitForHydration(page);
  await main(page).getByLabel(t("en", "pages:form.emailLabel")).fill(email);
  await main(page)
    .getByRole("button", { name: t("en", "pages:form.submit") })
    .click();
  await expect(page.getByRole("status")).toContainText(t("en", "toast.sent.title"));
  await page.goto(linkIn(await mailFor(email)));
  await page.getByRole("button", { name: t("en", "pages:confirm.submit") }).click();
  await expect(page).toHaveURL(/\/account\/explore\/member\?q=haus$/);
  await expect(main(page).locator("h1")).toHaveText(t("en", "titles.member"));
  await page.goto("/de/account/home");
  await expect(main(page).locator("h1")).toHaveText(t("de", "learning:welcome.title"));
});

test("the welcome passes axe in light and dark and fits 360 and 1280 px", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  // Four axe runs after a sign-in: more than the default time on a loaded machine.
  test.slow();
  // The refused answer below is a 400, which the browser reports on its console.
  consoleGuard.allow(/status of 400/);
  await signInFresh(page, javaScriptEnabled, "welcome-axe", { welcome: "keep" });
  await expectWelcome(page);
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `document width at ${width} px`).toBe(
      width,
    );
  }
  // axe runs scripts in the page: with JavaScript, as the other pages' checks do (face.spec.ts).
  if (javaScriptEnabled) await expectNoAxeViolations(page, "the welcome");
  // With the server's messages shown too (a number out of range, sent past the browser's own check).
  await main(page).getByLabel(t("en", "learning:welcome.language")).selectOption("fr");
  await main(page)
    .getByRole("radio", { name: t("en", "lists:levels.beginner") })
    .check();
  const number = main(page).getByLabel(t("en", "learning:settings.newPerDay"));
  await number.evaluate((input: HTMLInputElement) => {
    input.removeAttribute("max");
    input.value = "5000";
  });
  await main(page)
    .getByRole("button", { name: t("en", "learning:welcome.start") })
    .click();
  await expect(main(page).locator("#welcome-newPerDay-error")).toHaveText(
    t("en", "learning:settings.errors.newPerDay").replace("{{maxNewPerDay, number}}", "1,000"),
  );
  await expect(number).toHaveAttribute("aria-invalid", "true");
  await expect(number).toHaveValue("5000");
  await expect(main(page).getByLabel(t("en", "learning:welcome.language"))).toHaveValue("fr");
  if (javaScriptEnabled) await expectNoAxeViolations(page, "the welcome with an error");
});
