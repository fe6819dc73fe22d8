/**
 * Screenshots of states a page reaches only by acting on it (see playwright.screenshots.config.ts): the sign-in form
 * with its toasts on a phone, a spent sign-in link opened while signed in, the reader with a word open and the review
 * (front, answer, summary) and the statistics after it, at 360 and 1280 px, light and dark. Viewport pictures: what
 * covers what is the point. Also the README's picture of the reader, screenshots/reader.png.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { linkIn, mailFor } from "../e2e/mail";
import { expect, learnerTest, signInFresh, t, test, waitForHydration } from "../e2e/support";

const OUT = path.resolve("screenshots");
const SCHEMES = ["light", "dark"] as const;
const WIDTHS = [360, 1280];

function folder(javaScriptEnabled: boolean) {
  const dir = path.join(OUT, `states-${javaScriptEnabled ? "js" : "nojs"}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function frame(page: Page, scheme: (typeof SCHEMES)[number], width: number) {
  await page.emulateMedia({ colorScheme: scheme });
  await page.setViewportSize({ width, height: width < 600 ? 740 : 800 });
}

async function send(page: Page, address: string, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator("main").getByLabel(t("en", "pages:form.emailLabel")).fill(address);
  await page
    .locator("main")
    .getByRole("button", { name: t("en", "pages:form.submit") })
    .click();
  await expect(page.getByRole("status").locator("li")).toHaveCount(1);
}

test("sign-in toasts on a phone, and a spent link opened while signed in", async ({ page, javaScriptEnabled }) => {
  const dir = folder(javaScriptEnabled);
  for (const scheme of SCHEMES) {
    await frame(page, scheme, 360);
    await page.goto("/form");
    await send(page, "learner@localhost", javaScriptEnabled);
    await page.screenshot({ path: path.join(dir, `form-invalid-360-${scheme}.png`) });
  }
  await page.context().clearCookies();
  const email = await signInFresh(page, javaScriptEnabled, "shots");
  const link = linkIn(await mailFor(email));
  for (const scheme of SCHEMES) {
    await frame(page, scheme, 360);
    await page.goto("/form?another=1");
    await send(page, email.replace("@", "+again@"), javaScriptEnabled);
    await page.screenshot({ path: path.join(dir, `form-sent-360-${scheme}.png`) });
    for (const width of WIDTHS) {
      await frame(page, scheme, width);
      await page.goto(link);
      await page.screenshot({ path: path.join(dir, `confirm-spent-${width}-${scheme}.png`) });
    }
  }
});

learnerTest("the reader with a word open, and the review", async ({ page, javaScriptEnabled }) => {
  test.setTimeout(240_000);
  const dir = folder(javaScriptEnabled);
  await page.goto("/account/explore/public?language=en&level=beginner");
  const addAll = page.getByRole("button", { name: t("en", "lists:public.addAll") });
  if ((await addAll.count()) > 0) await addAll.click();
  await expect(page.getByText(t("en", "lists:public.owned")).first()).toBeVisible();
  await page.goto("/account/texts/new");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill("My street");
  await page
    .getByLabel(t("en", "reading:form.body"), { exact: true })
    .fill(
      "I live on a quiet street near the river. There are ten houses and one small shop. " +
        "Every morning I buy bread and read the newspaper. My friend works in the big library in town.",
    );
  await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
  await expect(page.locator("h1")).toHaveText("My street");
  const text = page.url();
  for (const scheme of SCHEMES) {
    for (const width of WIDTHS) {
      await frame(page, scheme, width);
      await page.goto(text);
      if (javaScriptEnabled) await waitForHydration(page);
      await page.locator("a.word").nth(6).click();
      await expect(page.locator(".word-panel h2")).toBeVisible();
      await page.screenshot({ path: path.join(dir, `reader-word-${width}-${scheme}.png`) });
      if (javaScriptEnabled && width === 1280 && scheme === "light") {
        // The README's picture (docs/images/reader.png, reduced to a palette: see the README).
        await page.screenshot({
          path: path.join(OUT, "reader.png"),
          clip: { x: 80, y: 64, width: 1120, height: 560 },
        });
      }

      await page.goto("/account/review");
      if (javaScriptEnabled) await waitForHydration(page);
      await page.screenshot({ path: path.join(dir, `review-front-${width}-${scheme}.png`) });
      const show = page.getByRole("button", { name: t("en", "learning:review.show") });
      if ((await show.count()) > 0) {
        await show.click();
        await page.screenshot({ path: path.join(dir, `review-answer-${width}-${scheme}.png`) });
      }
    }
  }
  // The summary: grade every card of today's queue as "Easy".
  await frame(page, "light", 360);
  for (let graded = 0; graded < 60; graded++) {
    await page.goto("/account/review");
    const show = page.getByRole("button", { name: t("en", "learning:review.show") });
    if ((await show.count()) === 0) break;
    await show.click();
    await page.getByRole("button", { name: new RegExp(t("en", "learning:review.grades.easy")) }).click();
  }
  for (const scheme of SCHEMES) {
    for (const width of WIDTHS) {
      await frame(page, scheme, width);
      await page.goto("/account/review");
      await page.screenshot({ path: path.join(dir, `review-summary-${width}-${scheme}.png`), fullPage: true });
      await page.goto("/account/statistics");
      await page.screenshot({ path: path.join(dir, `statistics-${width}-${scheme}.png`), fullPage: true });
    }
  }
});
