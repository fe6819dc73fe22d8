import type { Page } from "@playwright/test";
import { forwardedFor } from "./mail";
import { chooseStudyLanguage, expect, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const panel = (page: Page) => page.locator(".word-panel");
const meanings = (page: Page) => panel(page).locator(".instant-meanings");
const meaningField = (page: Page) => panel(page).getByLabel(t("en", "learning:term.meaning"), { exact: true });

/** A fresh learner of German with a German text open in the reader. */
async function germanText(page: Page, javaScriptEnabled: boolean) {
  await signInFresh(page, javaScriptEnabled, "dictionary");
  await chooseStudyLanguage(page, javaScriptEnabled, { label: "German" });
  await expect(page.locator(".lead").first()).toHaveText("You study German.");
  await page.goto("/account/texts/new");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill("Im Haus");
  await page.getByLabel(t("en", "reading:form.body"), { exact: true }).fill("Der Hund schläft im Haus.");
  await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
  await expect(page.locator("h1")).toHaveText("Im Haus");
  if (javaScriptEnabled) await waitForHydration(page);
}

test("a German word in the reader shows its meanings, and a meaning of one's own can still be typed", async ({
  page,
  javaScriptEnabled,
}) => {
  await germanText(page, javaScriptEnabled);
  await page.locator("a.word", { hasText: /^Hund$/ }).click();
  await expect(panel(page).getByRole("heading", { level: 2 })).toContainText("Hund");
  // The public lists' gloss of "der Hund", found for the word without its article.
  await expect(meanings(page).getByRole("heading", { name: t("en", "reading:meanings.title") })).toBeVisible();
  await expect(meanings(page).locator(".meaning-headword")).toContainText("der Hund · Noun");
  await expect(meanings(page).getByRole("button", { name: "dog", exact: true })).toBeVisible();
  await expect(meaningField(page)).toHaveValue("");
  // Pressing a meaning adds the term (word-panel.spec.ts); typing one's own stays possible: an ordinary field.
  await expect(panel(page).getByRole("heading", { name: t("en", "reading:panel.ownMeaning") })).toBeVisible();
  await meaningField(page).fill("dog (the pet)");
  await panel(page)
    .getByRole("button", { name: t("en", "reading:panel.addTerm") })
    .click();
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.created.title"));
  await expect(page.locator("a.word", { hasText: /^Hund$/ })).toHaveClass(/\bw-tolearn\b/);
  await expect(panel(page)).toContainText("Hund — dog (the pet)");
  // A term has its meaning: no dictionary buttons any more.
  await expect(meanings(page)).toHaveCount(0);
});

test("a word no dictionary knows shows no meanings; the sources page names each dictionary's licence", async ({
  page,
  javaScriptEnabled,
}) => {
  await germanText(page, javaScriptEnabled);
  await page.locator("a.word", { hasText: /^schläft$/ }).click();
  await expect(panel(page).getByRole("heading", { level: 2 })).toContainText("schläft");
  await expect(meanings(page)).toHaveCount(0);
  await expect(meaningField(page)).toBeEditable();
  await page
    .locator("footer")
    .getByRole("link", { name: t("en", "footer.dictionaries") })
    .click();
  await expect(page.locator("h1")).toHaveText(t("en", "reading:titles.dictionaries"));
  const row = page.locator(".dictionary-source", { hasText: t("en", "reading:dictionaries.ownLists") });
  await expect(row).toContainText(t("en", "reading:dictionaries.ownLicence"));
  // Languages with the same meanings' languages share a line: "…, Italian, … → German, English, …".
  await expect(row).toContainText(/Italian[^→]* → [^→]*English/);
});
