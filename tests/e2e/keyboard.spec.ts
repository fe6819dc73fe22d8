/**
 * Keyboard only: signing in, and reviewing with the shortcuts on and off. Shortcuts act only while the focus is on the
 * page or the review card, never on a link, button or field; focus moves to the answer and then to the next card.
 */
import type { Page } from "@playwright/test";
import { forwardedFor, linkIn, mailFor, uniqueAddress } from "./mail";
import { expect, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const focused = (page: Page) => page.locator(":focus");

async function settle(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await waitForHydration(page);
}

/** Signs in with the keyboard only: skip link, address, Enter; the confirm button is pressed with Enter too. */
async function signInByKeyboard(page: Page, javaScriptEnabled: boolean) {
  const email = uniqueAddress("keys");
  await page.goto("/form");
  await settle(page, javaScriptEnabled);
  await page.keyboard.press("Tab");
  await expect(focused(page)).toHaveText(t("en", "nav.skipToContent"));
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(focused(page)).toHaveAttribute("type", "email");
  await page.keyboard.type(email);
  await page.keyboard.press("Enter");
  await expect(page.locator(".sent-panel")).toContainText(email);
  await page.goto(linkIn(await mailFor(email)));
  await settle(page, javaScriptEnabled);
  // The confirm page waits for the person, with JavaScript too.
  const confirm = page.getByRole("button", { name: t("en", "pages:confirm.submit") });
  await expect(confirm).toBeVisible();
  const onConfirm = () => page.evaluate(() => document.activeElement?.matches("main button[type=submit]") ?? false);
  for (let presses = 0; presses < 20 && !(await onConfirm()); presses++) await page.keyboard.press("Tab");
  await expect(confirm).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/account\/home$/);
  await settle(page, javaScriptEnabled);
}

/** Two terms, added through the term form; Enter on its button submits it. */
async function addTerms(page: Page, javaScriptEnabled: boolean) {
  for (const [text, meaning] of [
    ["ephemeral", "lasting a very short time"],
    ["ubiquitous", "found everywhere"],
  ] as const) {
    await page.goto("/account/terms/new");
    await settle(page, javaScriptEnabled);
    await page.getByLabel(t("en", "learning:term.text"), { exact: true }).fill(text);
    await page.getByLabel(t("en", "learning:term.meaning"), { exact: true }).fill(meaning);
    await page.getByLabel(t("en", "learning:term.partOfSpeech")).selectOption({ label: "Adjective" });
    await page.getByRole("button", { name: t("en", "learning:term.create") }).press("Enter");
    await expect(page.locator("h1")).toHaveText(text);
  }
}

async function openReview(page: Page, javaScriptEnabled: boolean) {
  await page.goto("/account/review");
  await settle(page, javaScriptEnabled);
  // With JavaScript the review goes on from the cards on the device once it holds them (decision 117).
  await expect(page.locator(javaScriptEnabled ? '[data-review="device"] .review-term' : ".review-term")).toBeVisible();
}

test("signs in and reviews with the keyboard: focus on Show answer, then the answer, then the next card", async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(60_000);
  await signInByKeyboard(page, javaScriptEnabled);
  await addTerms(page, javaScriptEnabled);
  await openReview(page, javaScriptEnabled);
  const first = await page.locator(".review-term").textContent();
  await expect(focused(page)).toHaveText(t("en", "learning:review.show"));
  await page.keyboard.press("Enter");
  // Without JavaScript the answer is a page of its own; with it, the device shows it in place.
  if (!javaScriptEnabled) await expect(page).toHaveURL(/reveal=1$/);
  await expect(focused(page)).toHaveClass(/review-answer/);
  // Tab to "Good" (with its next interval; "3 · Good" with JavaScript) and press it.
  for (let i = 0; i < 3; i++) await page.keyboard.press("Tab");
  await expect(focused(page)).toHaveText(javaScriptEnabled ? /^3 · Good \S+/ : /^Good \S+/);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/account\/review$/);
  await expect(page.locator(".review-term")).not.toHaveText(first!);
  await expect(focused(page)).toHaveText(t("en", "learning:review.show"));
  await expect(
    page.getByRole("status").filter({ hasText: t("en", "learning:review.announceCard", { text: "" }) }),
  ).toHaveCount(1);
});

test("shortcuts act on the page and the card only: Enter on a link follows it, a digit on a button does nothing", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "keyboard shortcuts need JavaScript; without it the page is links and buttons only");
  test.setTimeout(60_000);
  await signInByKeyboard(page, true);
  await addTerms(page, true);
  await openReview(page, true);
  await expect(page.getByText(t("en", "learning:review.keys"))).toBeVisible();

  // Enter on the skip link goes to the content; the answer stays hidden.
  await page.locator(".skip-link").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/account\/review(#main)?$/);
  await expect(page.locator(".review-answer")).toHaveCount(0);

  // Enter on the brand link follows the link (the learner's home), and does not reveal.
  await page.locator("header .brand").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/account\/home$/);
  await openReview(page, true);

  // Space on the card reveals; the focus lands on the answer.
  await page.locator(".review-card").focus();
  await page.keyboard.press(" ");
  await expect(page.locator(".review-answer")).toBeVisible();
  await expect(focused(page)).toHaveClass(/review-answer/);
  // A digit on a button does nothing; on the answer it grades, and the focus lands on the next card's Show answer.
  await page.getByRole("button", { name: t("en", "learning:review.turnOff") }).focus();
  await page.keyboard.press("1");
  await expect(page.locator(".review-answer")).toBeVisible();
  await page.locator(".review-answer").focus();
  await page.keyboard.press("4");
  await expect(page.locator(".review-answer")).toHaveCount(0);
  await expect(focused(page)).toHaveText(t("en", "learning:review.show"));

  // With the focus on the page (body), Space reveals.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press(" ");
  await expect(page.locator(".review-answer")).toBeVisible();
});

test("the shortcuts can be turned off and stay off; without JavaScript they are neither offered nor mentioned", async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(60_000);
  if (!javaScriptEnabled) {
    await signInByKeyboard(page, false);
    await addTerms(page, false);
    await openReview(page, false);
    await expect(page.getByText(t("en", "learning:review.keys"))).toHaveCount(0);
    await expect(page.getByRole("button", { name: t("en", "learning:review.turnOff") })).toHaveCount(0);
    await expect(page.locator("[aria-keyshortcuts]")).toHaveCount(0);
    return;
  }
  await signInByKeyboard(page, javaScriptEnabled);
  await addTerms(page, javaScriptEnabled);
  await openReview(page, javaScriptEnabled);
  const off = page.getByRole("button", { name: t("en", "learning:review.turnOff") });
  await off.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText(t("en", "learning:review.shortcutsOff"))).toBeVisible();
  await expect(page.getByRole("button", { name: t("en", "learning:review.turnOn") })).toBeVisible();
  await openReview(page, javaScriptEnabled);
  await expect(page.getByText(t("en", "learning:review.shortcutsOff"))).toBeVisible();
  await expect(page.locator("[aria-keyshortcuts]")).toHaveCount(0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur()).catch(() => undefined);
  await page.keyboard.press(" ");
  await page.keyboard.press("Enter");
  await expect(page.locator(".review-answer")).toHaveCount(0);
  await expect(page).toHaveURL(/\/account\/review$/);
  // On again: the answer can be revealed from the page.
  await page.getByRole("button", { name: t("en", "learning:review.turnOn") }).click();
  await expect(page.getByText(t("en", "learning:review.keys"))).toBeVisible();
});

test("a whole session by keyboard alone reaches its summary: Space reveals, 1-4 grade", async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(90_000);
  await signInByKeyboard(page, javaScriptEnabled);
  await addTerms(page, javaScriptEnabled);
  await openReview(page, javaScriptEnabled);
  const progress = page.getByRole("progressbar", { name: t("en", "learning:review.progressLabel") });
  await expect(progress).toHaveAttribute("max", "2");
  await expect(progress).toHaveAttribute("value", "0");
  for (const grade of ["4", "1"]) {
    const count = await page.locator(".review-progress > .hint").textContent();
    // The focused "Show answer" is a button: Space presses it, with and without JavaScript.
    await expect(focused(page)).toHaveText(t("en", "learning:review.show"));
    await page.keyboard.press(" ");
    await expect(page.locator(".review-answer")).toBeFocused();
    // One count on both sides of a card; each grade says when the card comes back.
    await expect(page.locator(".review-progress > .hint")).toHaveText(count!);
    await expect(page.locator(".grade-interval")).toHaveText([/\d+ min/, /\d+ min/, /\d+ min/, /\d+ days?/]);
    if (javaScriptEnabled) await page.keyboard.press(grade);
    else {
      // Without JavaScript the grades are buttons in the page's tab order.
      for (let i = 0; i < Number(grade); i++) await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
    }
    await expect(page.locator(".review-answer")).toHaveCount(0);
  }
  // "Again" brought the second term back in a minute: the summary waits beside the next card's time.
  const summary = page.locator(".review-summary");
  await expect(summary).toBeVisible();
  await expect(summary).toContainText(t("en", "learning:review.summary.reviewed") + "2");
  await expect(summary).toContainText(t("en", "learning:review.summary.correct") + "50%");
  // Two grades are far from the daily goal (10 minutes): the streak counts days that meet it (decision 119).
  await expect(summary).toContainText(
    t("en", "learning:review.summary.streak") + t("en", "learning:review.summary.days_other", { count: 0 }),
  );
});
