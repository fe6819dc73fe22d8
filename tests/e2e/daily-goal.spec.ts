/**
 * The daily goal (issue 55 item 4): progress toward it on the review and My home, in a bar and in words; the end of a
 * session says whether it is met; a learning card due within a minute comes back by itself after a countdown (with
 * JavaScript; without, a link); the goal is set in Settings and the streak counts the days that reach it.
 */
import type { Page } from "@playwright/test";
import { forwardedFor } from "./mail";
import { expect, signInFresh, t, test } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const main = (page: Page) => page.locator("main");

async function addTerms(page: Page, words: string[]): Promise<void> {
  for (const [i, text] of words.entries()) {
    const response = await page.request.post("/account/terms/new", {
      form: { text, meaning: `meaning ${i}`, partOfSpeech: "noun", notes: "" },
      headers: { Origin: new URL(page.url()).origin },
      maxRedirects: 0,
    });
    expect(response.status(), text).toBeLessThan(400);
  }
}

async function grade(page: Page, name: "again" | "good") {
  await main(page)
    .getByRole("button", { name: t("en", "learning:review.show") })
    .click();
  await main(page)
    .getByRole("button", { name: new RegExp(t("en", `learning:review.grades.${name}`)) })
    .click();
}

async function setGoal(page: Page, minutes: number) {
  await page.goto("/account/settings");
  await main(page)
    .getByRole("radio", { name: t("en", "learning:goal.own") })
    .check();
  await main(page).getByLabel(t("en", "learning:goal.ownLabel")).fill(String(minutes));
  await main(page)
    .getByRole("button", { name: t("en", "learning:goal.save") })
    .click();
  await expect(page.getByRole("status")).toContainText(t("en", "learning:goal.saved.title"));
}

test("the review shows progress toward the goal, says at the end whether it is met, and brings a card back by itself", async ({
  page,
  javaScriptEnabled,
}) => {
  test.slow();
  await signInFresh(page, javaScriptEnabled, "daily-goal");
  await addTerms(page, ["zaun", "zelt"]);
  await page.goto("/account/home");
  await expect(main(page).locator(".home-day .goal-meter")).toContainText(
    t("en", "learning:goal.progress_other", { minutes: 0, count: 10 }),
  );
  await expect(main(page).locator(".home-day progress")).toHaveAttribute("max", "10");

  await page.goto("/account/review");
  await expect(main(page).locator(".review-progress .goal-meter")).toContainText(
    t("en", "learning:goal.progress_other", { minutes: 0, count: 10 }),
  );
  // "Again" brings the first card back in a minute; "Good" the second in ten.
  await grade(page, "again");
  await grade(page, "good");
  await expect(main(page).locator(".review-summary")).toBeVisible();
  // Each grade counts at most a minute: two grades are far from ten minutes.
  await expect(main(page).locator(".goal-message")).toHaveAttribute("data-met", "false");
  await expect(main(page).locator(".goal-message")).toContainText(
    /more minutes? of review reach(es)? today’s goal \(10 minutes\)/,
  );

  const showCard = main(page).getByRole("link", { name: t("en", "learning:review.showCard") });
  await expect(showCard).toHaveAttribute("href", "/account/review");
  await expect(main(page).getByText("Check again")).toHaveCount(0);
  if (javaScriptEnabled) {
    // A countdown in seconds, then the card, without a reload or a press.
    await expect(main(page).getByRole("timer")).toHaveText(/The next card comes back in \d+ seconds?\./);
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = "kept"));
    await expect(main(page).locator(".review-card")).toBeVisible({ timeout: 90_000 });
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("kept");
    await grade(page, "good");
  } else {
    await expect(main(page)).toContainText(t("en", "learning:review.nextSoon"));
  }

  // A goal of one minute is met by the grades given.
  await setGoal(page, 1);
  await page.goto("/account/review");
  if (!javaScriptEnabled && (await main(page).locator(".review-card").count()) > 0) await grade(page, "good");
  await expect(main(page).locator(".goal-message")).toHaveAttribute("data-met", "true");
  await expect(main(page).locator(".goal-message")).toContainText(
    t("en", "learning:goal.sessionMet_one", { count: 1 }),
  );
  await page.goto("/account/home");
  await expect(main(page).locator(".home-day .goal-meter")).toHaveAttribute("data-met", "true");
  await expect(main(page).locator(".home-day .streak")).toHaveText(
    t("en", "learning:statistics.streak_one", { count: 1 }),
  );
  await page.goto("/account/statistics");
  await expect(main(page).locator(".streak-rule")).toContainText("Since December 7, 2026");
});

test("Settings refuse a goal out of bounds with a message", async ({ page, javaScriptEnabled, consoleGuard }) => {
  consoleGuard.allow(/status of 400/);
  await signInFresh(page, javaScriptEnabled, "daily-goal-bounds");
  await page.goto("/account/settings");
  await main(page)
    .getByRole("radio", { name: t("en", "learning:goal.own") })
    .check();
  const own = main(page).getByLabel(t("en", "learning:goal.ownLabel"));
  await own.evaluate((input: HTMLInputElement) => input.removeAttribute("min"));
  await own.fill("0");
  await main(page)
    .getByRole("button", { name: t("en", "learning:goal.save") })
    .click();
  await expect(main(page).locator("#goal-error")).toHaveText(t("en", "learning:goal.errors.invalid"));
  await expect(own).toHaveValue("0");
});
