import type { Page } from "@playwright/test";
import { forwardedFor } from "./mail";
import {
  chooseStudyLanguage,
  expect,
  openAccountMenu,
  SAFE_ZONE,
  signInFresh,
  t,
  test,
  waitForHydration,
} from "./support";

// The browser's zone, preselected with JavaScript when the learner has not chosen one.
test.use({ extraHTTPHeaders: forwardedFor(), timezoneId: "Asia/Tokyo" });

const signIn = (page: Page, javaScriptEnabled: boolean) => signInFresh(page, javaScriptEnabled, "daily");

async function openSettings(page: Page, javaScriptEnabled: boolean) {
  await openAccountMenu(page, "en");
  await page
    .locator("header")
    .getByRole("link", { name: t("en", "nav.settings") })
    .click();
  await expect(page.locator("h1")).toHaveText(t("en", "titles.settings"));
  if (javaScriptEnabled) await waitForHydration(page);
}

async function chooseModes(page: Page, modes: string[], zone = SAFE_ZONE) {
  for (const box of await page.locator('input[name="modes"]').all())
    await box.setChecked(modes.includes((await box.getAttribute("value")) ?? ""));
  await page.getByLabel(t("en", "learning:settings.timeZone")).selectOption(zone);
  await page.getByRole("button", { name: t("en", "learning:settings.save") }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.settingsSaved.title"));
}

async function addTerm(page: Page, fields: { text: string; meaning: string; sentence?: string; translation?: string }) {
  await page.goto("/account/terms/new");
  await page.getByLabel(t("en", "learning:term.text"), { exact: true }).fill(fields.text);
  await page.getByLabel(t("en", "learning:term.meaning"), { exact: true }).fill(fields.meaning);
  await page.getByLabel(t("en", "learning:term.partOfSpeech")).selectOption({ label: "Noun" });
  if (fields.sentence) await page.getByLabel(t("en", "learning:term.exampleSentence")).fill(fields.sentence);
  if (fields.translation) await page.getByLabel(t("en", "learning:term.exampleTranslation")).fill(fields.translation);
  await page.getByRole("button", { name: t("en", "learning:term.create") }).click();
  await expect(page.locator("h1")).toHaveText(fields.text);
}

/**
 * Opens the review at its first card. With JavaScript the page settles once the device has taken over the server's
 * card (ADR 117): typing starts there, as a learner's keys would land in the field that has the focus by then.
 */
async function startReview(page: Page, javaScriptEnabled: boolean) {
  await page.goto("/account/home");
  await page.getByRole("link", { name: t("en", "learning:home.startReview") }).click();
  await expect(page.locator("h1")).toHaveText(t("en", "learning:review.title"));
  if (javaScriptEnabled) await expect(page.locator('[data-review="device"] .review-card')).toBeVisible();
}

const nextIn10 = t("en", "learning:review.nextIn_other", { count: 10 });

test("sets daily limits, time zone and review modes; refuses no mode with a message", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  // The refused form answers 400, which the browser reports as a failed resource.
  consoleGuard.allow(/status of 400 \(Bad Request\) \(http:\/\/[^)]+\/account\/settings(\.data)?\)$/);
  await signIn(page, javaScriptEnabled);
  await openSettings(page, javaScriptEnabled);
  const zone = page.getByLabel(t("en", "learning:settings.timeZone"));
  await expect(zone).toHaveValue(javaScriptEnabled ? "Asia/Tokyo" : "UTC");
  await expect(page.getByLabel(t("en", "learning:settings.newPerDay"))).toHaveValue("20");
  await expect(page.getByLabel(t("en", "learning:settings.reviewsPerDay"))).toHaveValue("200");
  await expect(page.locator('input[name="modes"][value="forward"]')).toBeChecked();

  await page.locator('input[name="modes"][value="forward"]').uncheck();
  await page.getByRole("button", { name: t("en", "learning:settings.save") }).click();
  await expect(page.getByText(t("en", "learning:settings.errors.modes"))).toBeVisible();

  await page.getByLabel(t("en", "learning:settings.newPerDay")).fill("1");
  await page.getByLabel(t("en", "learning:settings.reviewsPerDay")).fill("50");
  await chooseModes(page, ["forward", "typed"], "Europe/Berlin");
  await page.reload();
  await expect(page.getByLabel(t("en", "learning:settings.newPerDay"))).toHaveValue("1");
  await expect(page.getByLabel(t("en", "learning:settings.reviewsPerDay"))).toHaveValue("50");
  await expect(zone).toHaveValue("Europe/Berlin");
  await expect(page.locator('input[name="modes"][value="typed"]')).toBeChecked();
  await expect(page.locator('input[name="modes"][value="cloze"]')).not.toBeChecked();

  // The home pages count what is left today.
  await page.goto("/");
  await expect(page.locator(".day-panel")).toContainText(t("en", "learning:today.newLeft_one", { count: 1 }));
  await expect(page.locator(".day-panel")).toContainText(t("en", "learning:today.reviewsLeft_other", { count: 50 }));
  await expect(page.locator("#home-email")).toHaveCount(0);
});

test("reviews meaning → term", async ({ page, javaScriptEnabled }) => {
  await signIn(page, javaScriptEnabled);
  await openSettings(page, javaScriptEnabled);
  await chooseModes(page, ["reverse"]);
  await addTerm(page, { text: "gregarious", meaning: "fond of company" });
  await startReview(page, javaScriptEnabled);
  await expect(page.locator(".review-card")).toContainText("fond of company");
  await expect(page.locator(".review-card")).not.toContainText("gregarious");
  if (javaScriptEnabled) await page.keyboard.press("Enter");
  else await page.getByRole("button", { name: t("en", "learning:review.show") }).click();
  await expect(page.locator(".review-answer")).toContainText("gregarious");
  if (javaScriptEnabled) await page.keyboard.press("3");
  else await page.getByRole("button", { name: /Good/ }).click();
  await expect(page.getByText(nextIn10)).toBeVisible();
  await expect(page.getByText(t("en", "learning:review.done"))).toHaveCount(0);
});

test("reviews by typing the term: an accent-only slip suggests Hard, the learner still chooses", async ({
  page,
  javaScriptEnabled,
}) => {
  await signIn(page, javaScriptEnabled);
  await openSettings(page, javaScriptEnabled);
  await chooseModes(page, ["typed"]);
  await addTerm(page, { text: "café", meaning: "a small restaurant" });
  await startReview(page, javaScriptEnabled);
  await expect(page.locator(".review-card")).toContainText("a small restaurant");
  await expect(page.getByLabel(t("en", "learning:review.typeTheTerm"))).toBeFocused();
  await page.getByLabel(t("en", "learning:review.typeTheTerm")).fill("Cafe");
  await page.getByLabel(t("en", "learning:review.typeTheTerm")).press("Enter");
  await expect(page.locator(".answer-check")).toContainText("Almost");
  await expect(page.locator(".button-suggested")).toHaveText(/Hard/);
  // The focus moves to the answer, where the digits grade (review-shortcuts.ts).
  await expect(page.locator(".review-answer")).toBeFocused();
  if (javaScriptEnabled) await page.keyboard.press("3");
  else await page.getByRole("button", { name: /Good/ }).click();
  await expect(page.getByText(nextIn10)).toBeVisible();
});

test("reviews a cloze from the term's own example", async ({ page, javaScriptEnabled }) => {
  await signIn(page, javaScriptEnabled);
  await openSettings(page, javaScriptEnabled);
  await chooseModes(page, ["cloze"]);
  await addTerm(page, {
    text: "umbrella",
    meaning: "protection from rain",
    sentence: "Take an umbrella, it is raining.",
    translation: "Nimm einen Schirm, es regnet.",
  });
  await startReview(page, javaScriptEnabled);
  await expect(page.locator(".review-cloze")).toHaveText(/Take an\s*_____\s*, it is raining\./);
  await expect(page.locator(".review-card")).toContainText("Nimm einen Schirm");
  if (javaScriptEnabled) await page.keyboard.press("Enter");
  else await page.getByRole("button", { name: t("en", "learning:review.show") }).click();
  await expect(page.locator(".review-cloze")).toHaveText("Take an umbrella, it is raining.");
  await page.getByRole("button", { name: /Easy/ }).click();
  await expect(page.getByText(t("en", "learning:review.done"))).toBeVisible();
});

test("types an answer with a special letter of the study language; a slip shows letter by letter", async ({
  page,
  javaScriptEnabled,
}) => {
  await signIn(page, javaScriptEnabled);
  await openSettings(page, javaScriptEnabled);
  await chooseModes(page, ["typed"]);
  await page.goto("/account/home");
  await chooseStudyLanguage(page, javaScriptEnabled, "de");
  await expect(page.locator(".lead").first()).toContainText("German");
  for (const [text, meaning] of [
    ["Straße", "street"],
    ["Käse", "cheese"],
  ] as const)
    await addTerm(page, { text, meaning });
  await startReview(page, javaScriptEnabled);
  if (javaScriptEnabled) await waitForHydration(page);
  const field = page.getByLabel(t("en", "learning:review.typeTheTerm"));
  await expect(field).toBeFocused();
  const asked = (await page.locator(".review-meaning").textContent())!;
  const answer = asked === "street" ? "Straße" : "Käse";
  if (javaScriptEnabled) {
    // The letters are buttons after the field: typed, then one reached with Tab and pressed, then typed on.
    const letters = page.getByRole("group", { name: t("en", "learning:review.specialLetters") });
    await expect(letters.getByRole("button")).toHaveText(["ä", "ö", "ü", "ß", "Ä", "Ö", "Ü"]);
    const special = answer === "Straße" ? "ß" : "ä";
    const [head, tail] = answer.split(special) as [string, string];
    await field.pressSequentially(head);
    await letters.getByRole("button", { name: t("en", "learning:review.insertLetter", { letter: special }) }).focus();
    await page.keyboard.press("Enter");
    await expect(field).toBeFocused();
    await expect(field).toHaveValue(head + special);
    await field.pressSequentially(tail);
    await field.press("Enter");
    await expect(page.locator(".answer-check")).toContainText("Correct");
    await expect(page.locator(".typed-diff")).toHaveCount(0);
  } else {
    // Without JavaScript there is no row of letters; a slip is shown letter by letter.
    await expect(page.getByRole("group", { name: t("en", "learning:review.specialLetters") })).toHaveCount(0);
    await field.fill(answer === "Straße" ? "Strase" : "Kase");
    await field.press("Enter");
    await expect(page.locator(".answer-check")).toContainText(answer === "Straße" ? "Not quite" : "Almost");
    await expect(page.locator(".typed-diff ins")).toHaveText(answer === "Straße" ? "ß" : "ä");
    await expect(page.locator(".typed-diff del")).toHaveText(answer === "Straße" ? "s" : "a");
  }
});

test("a grade sent twice counts once: the second submit of the same card changes nothing", async ({
  page,
  javaScriptEnabled,
}) => {
  // With JavaScript the grade buttons are disabled while a grade is on its way; without, nothing stops a second click.
  test.skip(javaScriptEnabled, "a second submit needs a page without JavaScript");
  await signIn(page, javaScriptEnabled);
  await addTerm(page, { text: "steadfast", meaning: "firm" });
  const termPage = page.url();
  await expect(page.getByText(t("en", "learning:term.reviewed_other", { count: 0 }))).toBeVisible();
  await startReview(page, javaScriptEnabled);
  await page.getByRole("button", { name: t("en", "learning:review.show") }).click();
  await expect(page.locator(".review-answer")).toContainText("firm");

  // Both POSTs reach the server; the answer to the first is held until the second is sent, as on a slow link where
  // the learner clicks again before the next card arrives.
  const answers: number[] = [];
  let firstSent!: () => void;
  const first = new Promise<void>((resolve) => (firstSent = resolve));
  let secondSent!: () => void;
  const second = new Promise<void>((resolve) => (secondSent = resolve));
  await page.route(
    (url) => url.pathname === "/account/review",
    async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      const isFirst = answers.length === 0;
      answers.push(0);
      if (isFirst) firstSent();
      else secondSent();
      const response = await route.fetch({ maxRedirects: 0 });
      answers[isFirst ? 0 : answers.length - 1] = response.status();
      if (isFirst) await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 5000))]);
      // The browser gave up the first navigation for the second one: its answer has nowhere to go.
      await route.fulfill({ response }).catch(() => undefined);
    },
  );
  // Two clicks at the button's place, as a hand does: the second while the first is on its way.
  const box = (await page.getByRole("button", { name: /Good/ }).boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.click(x, y);
  await first;
  await page.mouse.click(x, y);
  await expect.poll(() => answers).toEqual([303, 303]);
  await expect(page.locator(".review-answer")).toHaveCount(0);
  await expect(page.locator("h1")).toHaveText(t("en", "learning:review.title"));

  await page.goto(termPage);
  await expect(page.getByText(t("en", "learning:term.reviewed_one", { count: 1 }))).toBeVisible();
});

test.describe("a learner in Kyiv", () => {
  test.use({ timezoneId: "Europe/Kyiv" });

  test("sees and saves time zones under IANA's current names, found by searching with JavaScript", async ({
    page,
    javaScriptEnabled,
  }) => {
    await signIn(page, javaScriptEnabled);
    await openSettings(page, javaScriptEnabled);
    const zone = page.getByLabel(t("en", "learning:settings.timeZone"));
    await expect(zone.locator('option[value="Europe/Kyiv"]')).toHaveCount(1);
    await expect(zone.locator('option[value="Europe/Kiev"]')).toHaveCount(0);
    const search = page.getByLabel(t("en", "learning:settings.timeZoneSearch"));
    if (javaScriptEnabled) {
      // The browser's zone, preselected under its current name.
      await expect(zone).toHaveValue("Europe/Kyiv");
      await search.fill("kolk");
      await expect(zone).toHaveValue("Asia/Kolkata");
      await search.fill("ho chi");
      await expect(zone).toHaveValue("Asia/Ho_Chi_Minh");
      await expect(zone.locator("option")).toHaveCount(1);
    } else {
      await expect(search).toHaveCount(0);
      await zone.selectOption("Asia/Ho_Chi_Minh");
    }
    await page.getByRole("button", { name: t("en", "learning:settings.save") }).click();
    await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.settingsSaved.title"));
    await page.reload();
    await expect(zone).toHaveValue("Asia/Ho_Chi_Minh");
  });
});

test("a refused save takes away the toast of the save before it", async ({ page, javaScriptEnabled, consoleGuard }) => {
  consoleGuard.allow(/status of 400 \(Bad Request\) \(http:\/\/[^)]+\/account\/settings(\.data)?\)$/);
  await signIn(page, javaScriptEnabled);
  // Time stands still, so no toast leaves on its five-second timer during the test.
  await page.clock.install();
  await openSettings(page, javaScriptEnabled);
  await page.getByRole("button", { name: t("en", "learning:settings.save") }).click();
  const saved = page.locator(".toast", { hasText: t("en", "learning:toasts.settingsSaved.title") });
  await expect(saved).toBeVisible();
  await page.locator('input[name="modes"]').first().uncheck();
  for (const box of await page.locator('input[name="modes"]').all()) await box.uncheck();
  await page.getByRole("button", { name: t("en", "learning:settings.save") }).click();
  await expect(page.getByText(t("en", "learning:settings.errors.modes"))).toBeVisible();
  await expect(saved).toHaveCount(0);
});
