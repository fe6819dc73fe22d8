/**
 * The first sign-in: My home's welcome, one question a screen (study language with search, level, daily goal), with
 * and without JavaScript, its back links and "Skip", then the first lesson (the text of the learner's level in the
 * reader, the starter list after it) and My home offering both; for every language with content files, in English and
 * German. Axe on each step and on My home, light and dark; 360 and 1280 px.
 */
import { readdirSync, readFileSync } from "node:fs";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { forwardedFor, linkIn, mailFor, uniqueAddress } from "./mail";
import { answerWelcome, BASIC_PROJECT, expect, localePath, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const main = (page: Page) => page.locator("main");

/** The shipped texts and public lists, read from the files: new languages are covered as their files land. */
const LEVELS = ["beginner", "elementary", "intermediate", "upper_intermediate", "advanced", "expert"];
const samples = readdirSync("app/reading/samples")
  .filter((name) => name.endsWith(".json"))
  .map(
    (name) =>
      JSON.parse(readFileSync(`app/reading/samples/${name}`, "utf8")) as {
        language: string;
        level: string;
        title: string;
      },
  );
const lists = readdirSync("app/learning/public-lists").flatMap((name) => {
  const match = /^([a-z]{2,3})-([a-z_]+)\.json$/.exec(name);
  return match ? [{ language: match[1]!, level: match[2]! }] : [];
});
const CONTENT_LANGUAGES = [...new Set(samples.map((sample) => sample.language))]
  .filter((language) => lists.some((list) => list.language === language))
  .sort();

/** The text the welcome opens: the learner's level, else the nearest (lower first on a tie). */
function nearestSample(language: string, level: string) {
  const wanted = LEVELS.indexOf(level);
  const order = [...LEVELS].sort(
    (a, b) =>
      Math.abs(LEVELS.indexOf(a) - wanted) - Math.abs(LEVELS.indexOf(b) - wanted) ||
      LEVELS.indexOf(a) - LEVELS.indexOf(b),
  );
  for (const candidate of order) {
    const found = samples.find((sample) => sample.language === language && sample.level === candidate);
    if (found) return found;
  }
  throw new Error(`no sample text in ${language}`);
}

async function expectNoAxeViolations(page: Page, what: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
    const found = violations.map((v) => `${v.id}: ${v.nodes.map((node) => node.target.join(" ")).join(", ")}`);
    expect(found, `axe violations, ${what}, ${colorScheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });
}

async function expectFits(page: Page, what: string) {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `${what}: document width at ${width} px`).toBe(width);
  }
}

const step = (page: Page, number: number) =>
  expect(main(page).locator(".welcome-step")).toHaveText(
    t("en", "learning:welcome.stepOf", { step: number, total: 3 }),
  );

test("the welcome asks one question a screen and leads into the first lesson", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.slow();
  // The refused goal below is a 400, which the browser reports on its console.
  consoleGuard.allow(/status of 400/);
  await signInFresh(page, javaScriptEnabled, "welcome", { welcome: "keep" });
  await expect(main(page).locator("h1")).toHaveText(t("en", "learning:welcome.title"));
  await step(page, 1);
  // The most chosen languages first, Spanish leading; none is chosen for the learner.
  const radios = main(page).locator('input[name="studyLanguage"]');
  await expect(radios.first()).toHaveAttribute("value", "es");
  await expect(main(page).locator('input[name="studyLanguage"]:checked')).toHaveCount(0);
  await expect(main(page).locator(".welcome-more summary")).toBeVisible();
  if (javaScriptEnabled) await expectNoAxeViolations(page, "welcome, language");

  // The search: as the learner types with JavaScript, by the search button without.
  const search = main(page).getByRole("searchbox", { name: t("en", "learning:welcome.search") });
  await search.fill("deutsch");
  if (!javaScriptEnabled) {
    await main(page)
      .getByRole("button", { name: t("en", "learning:welcome.searchButton") })
      .click();
    await expect(page).toHaveURL(/step=language&q=deutsch$/);
  }
  await expect(main(page).getByRole("radio")).toHaveCount(1);
  await main(page).getByRole("radio", { name: "German" }).check();
  await main(page)
    .getByRole("button", { name: t("en", "learning:welcome.next") })
    .click();

  await expect(page).toHaveURL(/\/account\/home\?step=level$/);
  await step(page, 2);
  await expect(main(page).locator("legend")).toHaveText(
    t("en", "learning:welcome.levelQuestion", { language: "German" }),
  );
  await expect(main(page)).toContainText(t("en", "learning:welcome.levelHints.beginner"));
  // Back to the language: the answer is kept.
  await main(page)
    .getByRole("link", { name: t("en", "learning:welcome.back") })
    .click();
  await step(page, 1);
  await expect(main(page).getByRole("radio", { name: "German" })).toBeChecked();
  await main(page)
    .getByRole("button", { name: t("en", "learning:welcome.next") })
    .click();
  await step(page, 2);
  await main(page)
    .getByRole("radio", { name: new RegExp(`^${t("en", "lists:levels.elementary")}`) })
    .check();
  if (javaScriptEnabled) await expectNoAxeViolations(page, "welcome, level");
  await main(page)
    .getByRole("button", { name: t("en", "learning:welcome.next") })
    .click();

  await expect(page).toHaveURL(/\/account\/home\?step=goal$/);
  await step(page, 3);
  // The default goal, 10 minutes, is chosen; a number of their own outside the bounds is refused by the server.
  await expect(main(page).getByRole("radio", { name: /^10 minutes/ })).toBeChecked();
  if (javaScriptEnabled) await expectNoAxeViolations(page, "welcome, goal");
  await expectFits(page, "welcome, goal");
  await main(page)
    .getByRole("radio", { name: t("en", "learning:goal.own") })
    .check();
  const own = main(page).getByLabel(t("en", "learning:goal.ownLabel"));
  await own.evaluate((input: HTMLInputElement) => input.removeAttribute("max"));
  await own.fill("500");
  await main(page)
    .getByRole("button", { name: t("en", "learning:welcome.finish") })
    .click();
  await expect(main(page).locator("#goal-error")).toHaveText(t("en", "learning:goal.errors.invalid"));
  if (javaScriptEnabled) await expectNoAxeViolations(page, "welcome, goal refused");
  await main(page)
    .getByRole("radio", { name: /^15 minutes/ })
    .check();
  await main(page)
    .getByRole("button", { name: t("en", "learning:welcome.finish") })
    .click();

  // The first lesson: the German text of the learner's level in the reader, its words one press away, the starter
  // list after it.
  const lesson = nearestSample("de", "elementary");
  await expect(page).toHaveURL(/\/account\/texts\/[0-9a-f-]{36}$/);
  await expect(main(page).locator("h1")).toHaveText(lesson.title);
  await expect(page.getByRole("status")).toContainText(t("en", "learning:welcome.lesson.title"));
  const word = main(page).locator(".reader-text a").first();
  await expect(word).toBeVisible();
  await expect(main(page).locator('[data-starter-list="de-elementary"]')).toBeVisible();
  await word.click();
  await expect(main(page).locator(".word-panel")).toBeVisible();

  // My home offers to continue the text, with the starter list, and the day's goal.
  await page.goto("/account/home");
  await expect(main(page).locator("h1")).toHaveText(t("en", "titles.accountHome"));
  const next = main(page).locator(".next-action");
  await expect(next).toHaveAttribute("data-next", "read");
  await expect(next.locator("strong[lang=de]")).toHaveText(lesson.title);
  await expect(next.locator('[data-starter-list="de-elementary"]')).toBeVisible();
  await expect(main(page).locator(".goal-meter")).toContainText(
    t("en", "learning:goal.progress_other", { minutes: 0, count: 15 }),
  );
  if (javaScriptEnabled) await expectNoAxeViolations(page, "My home");
  await expectFits(page, "My home");
  await page.goto("/account/settings");
  await expect(main(page).getByRole("radio", { name: /^15 minutes/ })).toBeChecked();
});

test("skipping the welcome keeps the defaults, from any step", async ({ page, javaScriptEnabled }) => {
  await signInFresh(page, javaScriptEnabled, "welcome-skip", { welcome: "keep" });
  await main(page).getByRole("radio", { name: "French" }).check();
  await main(page)
    .getByRole("button", { name: t("en", "learning:welcome.next") })
    .click();
  await step(page, 2);
  await main(page)
    .getByRole("button", { name: t("en", "learning:welcome.skip") })
    .click();
  await expect(main(page).locator("h1")).toHaveText(t("en", "titles.accountHome"));
  // No text opened yet: the first lesson is offered, with the starter list at Beginner.
  const next = main(page).locator(".next-action");
  await expect(next).toHaveAttribute("data-next", "lesson");
  await expect(next.locator('[data-starter-list="fr-beginner"]')).toBeVisible();
  await page.reload();
  await expect(main(page).locator("h1")).toHaveText(t("en", "titles.accountHome"));
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

// Every language with a text and a public list, in an English and a German interface: the welcome leads to its text,
// and My home offers that text and the language's starter list. Without JavaScript (the steps are the same forms).
for (const language of CONTENT_LANGUAGES) {
  test.describe(language, () => {
    // A client address per language: the sign-in links of 42 learners from one address would meet its limit.
    test.use({ extraHTTPHeaders: forwardedFor() });
    for (const lng of ["en", "de"] as const) {
      test(`after the welcome, My home offers a text and a starter list in ${language} (${lng} interface)`, async ({
        page,
        javaScriptEnabled,
      }, testInfo) => {
        test.skip(javaScriptEnabled || testInfo.project.name === BASIC_PROJECT, "the same forms as without JavaScript");
        const level = samples.find((sample) => sample.language === language)!.level;
        await signInFresh(page, javaScriptEnabled, `welcome-${language}-${lng}`, { welcome: "keep" });
        await page.goto(localePath(lng, "/account/home"));
        await answerWelcome(page, lng, { language, level, goal: 5 });
        const lesson = nearestSample(language, level);
        await expect(main(page).locator("h1")).toHaveText(lesson.title);
        await page.goto(localePath(lng, "/account/home"));
        const next = main(page).locator(".next-action");
        await expect(next.locator(`strong[lang=${language}]`)).toHaveText(lesson.title);
        await expect(next.locator(`[data-starter-list^="${language}-"]`)).toBeVisible();
        await next.locator(`[data-starter-list^="${language}-"]`).click();
        await expect(page).toHaveURL(new RegExp(`/account/explore/public\\?language=${language}&level=`));
        await expect(main(page).locator(".word-list .word-row").first()).toBeVisible();
      });
    }
  });
}
