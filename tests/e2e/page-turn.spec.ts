import { expect, signInFresh, t, test, waitForHydration } from "./support";
import { forwardedFor } from "./mail";

// Sign-ins from an address of this file's own: the sign-in limit per address (20 an hour) is not shared with other files.
test.use({ extraHTTPHeaders: forwardedFor() });

/** Invented words no dictionary has, ten to a sentence, repeated over two pages (a page holds about 500 words). */
const letters = "abcdefghijklmnopqrstuvwxyz";
const invented = () => "zq" + Array.from({ length: 6 }, () => letters[Math.floor(Math.random() * 26)]).join("");

test("turning the page marks its new words as known when the setting is on, with the same undo", async ({
  page,
  javaScriptEnabled,
}) => {
  await signInFresh(page, javaScriptEnabled, "page-turn");
  // Page 1: the first ten words; page 2: five of them and five words of its own.
  const first = Array.from({ length: 10 }, invented);
  const second = Array.from({ length: 5 }, invented);
  const again = first.slice(0, 5);
  // Each sentence starts with a capital, so the segmenter ends the one before (and pages cut between sentences).
  const body = `Then ${first.join(" ")}. `.repeat(46) + `Then ${[...again, ...second].join(" ")}. `.repeat(10);
  await page.goto("/account/texts/new");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill("Two pages");
  await page.getByLabel(t("en", "reading:form.body"), { exact: true }).fill(body);
  await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
  await expect(page.locator("h1")).toHaveText("Two pages");
  const text = new URL(page.url()).pathname;
  const word = (w: string) => page.locator("a.word", { hasText: new RegExp(`^${w}$`) }).first();
  const next = t("en", "reading:next");

  // Off by default: the next page is a plain link and marks nothing.
  await expect(page.getByRole("link", { name: next })).toBeVisible();
  await expect(page.getByRole("button", { name: next })).toHaveCount(0);

  await page.goto("/account/settings");
  if (javaScriptEnabled) await waitForHydration(page);
  const box = page.getByLabel(t("en", "learning:settings.knownOnPageTurn"));
  await expect(box).not.toBeChecked();
  await box.check();
  await page.getByRole("button", { name: t("en", "learning:settings.savePageTurn") }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.pageTurnSaved.title"));
  await expect(page.getByLabel(t("en", "learning:settings.knownOnPageTurn"))).toBeChecked();

  await page.goto(text);
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(page.getByText(t("en", "reading:markKnown.turnHint"))).toBeVisible();
  await page.getByRole("button", { name: next }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "reading:toasts.markedKnown.title"));
  await expect(page).toHaveURL(/\?page=2&known=\d+$/);
  // The first page's words are known now; the second page's own words are still new.
  for (const w of again) await expect(word(w)).toHaveClass(/\bw-ignored\b/);
  for (const w of second) await expect(word(w)).toHaveClass(/\bw-new\b/);

  await page.getByRole("button", { name: t("en", "reading:markKnown.undo") }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "reading:toasts.unmarkedKnown.title"));
  for (const w of again) await expect(word(w)).toHaveClass(/\bw-new\b/);

  // On the last page, finishing the text marks what is left on it.
  await page.getByRole("button", { name: t("en", "reading:markKnown.finish") }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "reading:toasts.markedKnown.title"));
  for (const w of [...again, ...second]) await expect(word(w)).toHaveClass(/\bw-ignored\b/);
});
