import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { forwardedFor } from "./mail";
import { chooseStudyLanguage, expect, signInFresh, t, test } from "./support";

/** The terms of the English beginner list, as shipped. */
const ENGLISH_BEGINNER = (
  JSON.parse(readFileSync("app/learning/public-lists/en-beginner.json", "utf8")) as { terms: unknown[] }
).terms.length;

test.use({ extraHTTPHeaders: forwardedFor() });

const signIn = (page: Page, javaScriptEnabled: boolean) => signInFresh(page, javaScriptEnabled, "learner");

async function addTerm(page: Page, fields: { text: string; meaning: string; partOfSpeech: string; sentence?: string }) {
  await page.goto("/account/terms/new");
  await page.getByLabel(t("en", "learning:term.text"), { exact: true }).fill(fields.text);
  await page.getByLabel(t("en", "learning:term.meaning"), { exact: true }).fill(fields.meaning);
  await page.getByLabel(t("en", "learning:term.partOfSpeech")).selectOption({ label: fields.partOfSpeech });
  if (fields.sentence) await page.getByLabel(t("en", "learning:term.exampleSentence")).fill(fields.sentence);
  await page.getByRole("button", { name: t("en", "learning:term.create") }).click();
  await expect(page.locator("h1")).toHaveText(fields.text);
}

test("chooses a study language whose name follows the interface language", async ({ page, javaScriptEnabled }) => {
  await signIn(page, javaScriptEnabled);
  await chooseStudyLanguage(page, javaScriptEnabled, { label: "Italian" });
  await expect(page.locator(".lead").first()).toHaveText("You study Italian.");
  await page.getByLabel(t("en", "language.label")).selectOption("uk");
  if (!javaScriptEnabled) await page.getByRole("button", { name: t("en", "language.submit") }).click();
  await expect(page).toHaveURL(/\/uk\/account\/home$/);
  await expect(page.locator(".lead").first()).toContainText("італійська");
  await page.goto("/uk/account/settings");
  await expect(page.getByLabel(t("uk", "learning:studyLanguage.label"))).toHaveValue("it");
});

test("adds a term, finds it by search and filters, counts its examples in en and uk", async ({
  page,
  javaScriptEnabled,
}) => {
  await signIn(page, javaScriptEnabled);
  await addTerm(page, {
    text: "serendipity",
    meaning: "a happy accident",
    partOfSpeech: "Noun",
    sentence: "It was pure serendipity.",
  });
  await expect(page.getByRole("status")).toContainText("Term added");
  await expect(page.getByRole("heading", { level: 2, name: /Examples/ })).toContainText("1 example");
  const termUrl = page.url();
  await page.getByLabel(t("en", "learning:term.exampleSentence")).fill("Serendipity brought us together.");
  await page.getByRole("button", { name: t("en", "learning:term.addExample") }).click();
  await expect(page.getByRole("heading", { level: 2, name: /Examples/ })).toContainText("2 examples");
  await page.goto(termUrl.replace("/account/", "/uk/account/"));
  await expect(page.getByRole("heading", { level: 2 }).first()).toContainText("2 приклади");

  await addTerm(page, { text: "run", meaning: "to move fast", partOfSpeech: "Verb" });
  await page.goto("/account/explore/member");
  await page.getByLabel(t("en", "learning:member.searchLabel")).fill("happy");
  await page.getByLabel(t("en", "learning:member.posFilter")).selectOption({ label: "Noun" });
  await page.getByRole("button", { name: t("en", "learning:member.apply") }).click();
  await expect(page).toHaveURL(/q=happy/);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.locator("tbody")).toContainText("serendipity");
  await expect(page.locator("tbody")).toContainText("2 examples");
  await page.getByLabel(t("en", "learning:member.searchLabel")).fill("");
  await page.getByLabel(t("en", "learning:member.posFilter")).selectOption({ label: "Verb" });
  await page.getByRole("button", { name: t("en", "learning:member.apply") }).click();
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.locator("tbody")).toContainText("run");
});

test("reviews a term and sees its stage change", async ({ page, javaScriptEnabled }) => {
  await signIn(page, javaScriptEnabled);
  await addTerm(page, { text: "ephemeral", meaning: "lasting a very short time", partOfSpeech: "Adjective" });
  await expect(page.locator(".stage").first()).toHaveText("To learn");
  await page.goto("/account/home");
  await page.getByRole("link", { name: t("en", "learning:home.startReview") }).click();
  await expect(page.locator(".review-term")).toHaveText("ephemeral");
  await expect(page.getByText("lasting a very short time")).toHaveCount(0);
  if (javaScriptEnabled) {
    // The focus starts on "Show answer": Enter follows it; Space with the focus on the card reveals too (keyboard.spec.ts).
    await page.keyboard.press("Enter");
    await expect(page.getByText("lasting a very short time")).toBeVisible();
    await page.evaluate(() => ((window as unknown as { reviewMarker: number }).reviewMarker = 1));
    await page.keyboard.press("4");
    await expect(page.getByText(t("en", "learning:review.done"))).toBeVisible();
    // Graded without a full page load.
    expect(await page.evaluate(() => (window as unknown as { reviewMarker?: number }).reviewMarker)).toBe(1);
  } else {
    await page.getByRole("button", { name: t("en", "learning:review.show") }).click();
    await expect(page.getByText("lasting a very short time")).toBeVisible();
    await page.getByRole("button", { name: /Easy/ }).click();
    await expect(page.getByText(t("en", "learning:review.done"))).toBeVisible();
  }
  await page.goto("/account/explore/member");
  await expect(page.locator("tbody .stage")).not.toHaveText("To learn");
  await expect(page.locator("tbody .stage")).toHaveText(/In progress|Learned/);
});

test("adds a whole public list, then deletes a term after confirming; its page then says it was deleted", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  consoleGuard.allow404();
  await signIn(page, javaScriptEnabled);
  await page.goto("/account/explore/public?language=en&level=beginner");
  await page.getByRole("button", { name: t("en", "lists:public.addAll") }).click();
  await expect(page.getByRole("status")).toContainText(`${ENGLISH_BEGINNER} new terms added.`);
  await expect(page.getByText(t("en", "lists:public.owned")).first()).toBeVisible();
  await page.goto("/account/explore/member");
  // The page's own live count, in main (the toasts' live region comes before it, after the header).
  await expect(page.locator("main [role=status]").first()).toContainText(`${ENGLISH_BEGINNER} terms found`);

  const text = (await page.locator("tbody a").first().textContent())!;
  await page.locator("tbody a").first().click();
  await expect(page.locator("h1")).toHaveText(text);
  const termUrl = page.url();
  await page.getByRole("link", { name: t("en", "learning:term.delete") }).click();
  await expect(page.getByText(`Delete “${text}” and its examples?`)).toBeVisible();
  await page.getByRole("button", { name: t("en", "learning:term.deleteYes") }).click();
  await expect(page).toHaveURL(/\/account\/explore\/member$/);
  await expect(page.locator("ol.toasts")).toContainText(`“${text}” was deleted.`);
  await expect(page.locator("main")).toContainText(`${ENGLISH_BEGINNER - 1} terms found`);

  // Back on the deleted term's page: a 404 that says the term was deleted, with a link to the others.
  const response = await page.goto(termUrl);
  expect(response?.status()).toBe(404);
  await expect(page.locator("main h1")).toHaveText(t("en", "errors.termDeleted"));
  await expect(page.locator("main")).toContainText(t("en", "errors.termDeletedHint"));
  await page
    .locator("main")
    .getByRole("link", { name: t("en", "nav.member") })
    .click();
  await expect(page).toHaveURL(/\/account\/explore\/member$/);
});

test("a term added twice answers 409 with a link to the term the learner already has", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  // The refused form answers 409, which the browser reports as a failed resource.
  consoleGuard.allow(/status of 409 \(Conflict\) \(http:\/\/[^)]+\/account\/terms\/new(\.data)?\)$/);
  await signIn(page, javaScriptEnabled);
  await addTerm(page, { text: "lantern", meaning: "a lamp in a case", partOfSpeech: "Noun" });
  const termUrl = page.url();
  await page.goto("/account/terms/new");
  await page.getByLabel(t("en", "learning:term.text"), { exact: true }).fill("Lantern");
  await page.getByLabel(t("en", "learning:term.meaning"), { exact: true }).fill("a light");
  const answer = page.waitForResponse(
    (response) => response.request().method() === "POST" && response.url().includes("/account/terms/new"),
  );
  await page.getByRole("button", { name: t("en", "learning:term.create") }).click();
  expect((await answer).status()).toBe(409);
  await expect(page.getByRole("alert")).toContainText(
    t("en", "learning:errors.duplicate", { text: "Lantern", language: "English" }),
  );
  await page
    .getByRole("alert")
    .getByRole("link", { name: t("en", "learning:errors.openExisting", { text: "lantern" }) })
    .click();
  await expect(page).toHaveURL(termUrl);
  await expect(page.locator("h1")).toHaveText("lantern");
});
