import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { forwardedFor } from "./mail";
import { expect, openAccountMenu, SAFE_ZONE, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");

const signIn = (page: Page, javaScriptEnabled: boolean) => signInFresh(page, javaScriptEnabled, "data");

/** Goes to a page and, with JavaScript, waits until React has taken it over. */
async function open(page: Page, url: string, javaScriptEnabled: boolean) {
  await page.goto(url);
  if (javaScriptEnabled) await waitForHydration(page);
}

test("imports pasted rows after a preview with bad rows by line and a changed column mapping", async ({
  page,
  javaScriptEnabled,
}) => {
  await signIn(page, javaScriptEnabled);
  await openAccountMenu(page, "en");
  await page
    .getByRole("link", { name: t("en", "nav.import") })
    .first()
    .click();
  await expect(page.locator("h1")).toHaveText(t("en", "titles.import"));
  await page
    .getByLabel(t("en", "learning:import.paste"))
    .fill("word,meaning,extra\nhouse,Haus,a building\n,empty,\ntree,Baum,green\n");
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await expect(page).toHaveURL(/\/account\/import\?draft=/);
  await expect(page.locator(".import-summary")).toContainText("2 new terms will be added to your English terms.");
  await expect(page.locator(".import-problems")).toHaveText("Line 3: the term is empty.");
  // The third column becomes the notes.
  await page.getByLabel("Column 3 (extra)").selectOption({ label: t("en", "learning:import.targets.notes") });
  await page.getByRole("button", { name: t("en", "learning:import.updatePreview") }).click();
  await expect(page).toHaveURL(/col2=notes/);
  await expect(page.locator(".import-sample tbody tr").first()).toContainText("a building");
  await page.getByRole("button", { name: "Import 2 terms" }).click();
  await expect(page).toHaveURL(/\/account\/explore\/member$/);
  await expect(page.locator(".toast")).toContainText("2 terms added, 0 duplicates skipped.");
  await expect(page.locator("tbody")).toContainText("house");
  await expect(page.locator("tbody")).toContainText("tree");
});

test("uploads Anki's plain-text export and imports it", async ({ page, javaScriptEnabled }) => {
  await signIn(page, javaScriptEnabled);
  await open(page, "/account/import", javaScriptEnabled);
  await page.getByLabel(t("en", "learning:import.file")).setInputFiles(path.join(FIXTURES, "anki-notes.txt"));
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await expect(page.locator(".lead")).toContainText("Anki “Notes in Plain Text” export · anki-notes.txt");
  await expect(page.locator(".import-problems")).toHaveText("Line 8: the term is empty.");
  await page.getByRole("button", { name: "Import 4 terms" }).click();
  await expect(page.locator(".toast")).toContainText("4 terms added");
  await expect(page.locator("tbody")).toContainText("dog");
});

test("downloads the JSON and CSV exports with dated file names", async ({ page, javaScriptEnabled }) => {
  await signIn(page, javaScriptEnabled);
  await open(page, "/account/import", javaScriptEnabled);
  await page.getByLabel(t("en", "learning:import.paste")).fill("Fernweh,longing for far places\n");
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await page.getByRole("button", { name: "Import 1 term" }).click();
  await expect(page.locator(".toast")).toContainText("1 term added");
  await open(page, "/account/export", javaScriptEnabled);
  const [json] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: t("en", "learning:export.json") }).click(),
  ]);
  expect(json.suggestedFilename()).toMatch(/^polyglot-export-\d{4}-\d{2}-\d{2}\.json$/);
  const document = JSON.parse(readFileSync(await json.path(), "utf8"));
  expect(document.terms.map((term: { text: string }) => term.text)).toEqual(["Fernweh"]);
  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: t("en", "learning:export.csv") }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/^polyglot-terms-\d{4}-\d{2}-\d{2}\.csv$/);
  // Pasted without a part of speech, the term has none.
  expect(readFileSync(await csv.path(), "utf8")).toContain("en,Fernweh,,longing for far places,,");
});

test("shows the statistics as charts with their numbers, after a review, for 30 and 90 days", async ({
  page,
  javaScriptEnabled,
}) => {
  await signIn(page, javaScriptEnabled);
  // The learner's day must not end within the card's 10-minute learning step (a run just before midnight UTC).
  await open(page, "/account/settings", javaScriptEnabled);
  await page.getByLabel(t("en", "learning:settings.timeZone")).selectOption(SAFE_ZONE);
  await page.getByRole("button", { name: t("en", "learning:settings.save") }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.settingsSaved.title"));
  await open(page, "/account/import", javaScriptEnabled);
  await page.getByLabel(t("en", "learning:import.paste")).fill("ephemeral,short-lived\n");
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await page.getByRole("button", { name: "Import 1 term" }).click();
  // The import must have landed before the review is opened: with JavaScript, leaving the page cancels its submission.
  await expect(page.locator(".toast")).toContainText("1 term added");
  await open(page, "/account/review", javaScriptEnabled);
  await page.getByRole("button", { name: t("en", "learning:review.show") }).click();
  // "Good" and when the card comes back ("3 · Good 10 min" with JavaScript).
  await page.getByRole("button", { name: new RegExp(`^(3 · )?${t("en", "learning:review.grades.good")} `) }).click();
  // A new term graded Good comes back after its learning step, later in the session.
  await expect(page.locator(".lead")).toHaveText(/^Next card due in \d+ minutes?\.$/);

  await page
    .getByRole("link", { name: t("en", "nav.statistics") })
    .first()
    .click();
  await expect(page.locator("h1")).toHaveText(t("en", "titles.statistics"));
  // The streak counts the days that reach the daily goal (ten minutes by default): one grade is not enough.
  await expect(page.locator(".streak")).toHaveText("Streak: 0 days in a row at your daily goal");
  await expect(page.getByRole("img")).toHaveCount(5);
  await expect(page.getByRole("img", { name: /Reviews per day, last 30 days/ })).toBeVisible();
  const numbers = page.locator("figure").first().locator("details");
  await numbers.locator("summary").click();
  await expect(numbers.locator("table tbody tr")).toHaveCount(30);
  await expect(numbers.locator("table tbody tr").last().locator("td")).toHaveText("1");

  await page.getByRole("combobox", { name: t("en", "learning:statistics.rangeLabel") }).selectOption("90");
  if (!javaScriptEnabled) await page.getByRole("button", { name: t("en", "learning:statistics.show") }).click();
  await expect(page).toHaveURL(/\?days=90$/);
  await expect(page.getByRole("heading", { level: 2 }).first()).toHaveText("Reviews per day, last 90 days");

  // Percentages in the locale's own format: “100 %” in German, “%100” in Turkish, never a hand-written “%”.
  for (const lng of ["de", "tr"] as const) {
    await open(page, `/${lng}/account/statistics`, javaScriptEnabled);
    const retention = page.locator("figure").nth(3);
    const whole = new Intl.NumberFormat(lng, { style: "percent" }).format(1);
    await expect(retention.locator(".chart-scale span").first()).toHaveText(whole);
    await retention.locator("details summary").click();
    await expect(retention.locator("table tbody tr").last().locator("td")).toHaveText(whole);
  }
});
