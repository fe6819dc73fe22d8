import type { Page } from "@playwright/test";
import { forwardedFor } from "./mail";
import { chooseStudyLanguage, expect, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

async function study(page: Page, javaScriptEnabled: boolean, language: string) {
  await page.goto("/account/home");
  await chooseStudyLanguage(page, javaScriptEnabled, language);
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.studyLanguageSaved.title"));
}

async function addText(page: Page, javaScriptEnabled: boolean, title: string, body: string) {
  await page.goto("/account/texts/new");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill(title);
  await page.getByLabel(t("en", "reading:form.body"), { exact: true }).fill(body);
  await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
  // The first text of a language in the server's life waits for its analyser to load (under a second on an idle core,
  // several on a machine loaded many times over).
  await expect(page.locator("h1")).toHaveText(title, { timeout: 20_000 });
  if (javaScriptEnabled) await waitForHydration(page);
}

/** The readings over the words of the reader, in order. */
const readings = (page: Page) => page.locator(".reader-text rt");

test("a Japanese text shows furigana over its kanji, a Chinese text pinyin, and the toggle hides them", async ({
  page,
  javaScriptEnabled,
}) => {
  await signInFresh(page, javaScriptEnabled, "readings");
  await study(page, javaScriptEnabled, "ja");
  await addText(page, javaScriptEnabled, "水", "昨日、水を飲みました。");
  // IPADIC's words, the verb with its endings as one; furigana in hiragana over the kanji only.
  await expect(page.locator(".reader-text a.word")).toHaveText(["昨日きのう", "水みず", "を", "飲のみました"]);
  await expect(readings(page)).toHaveText(["きのう", "みず", "の"]);
  const verb = page.locator("a.word").nth(3);
  await expect(verb.locator("ruby")).toHaveText("飲の");
  // The word panel takes the whole word as the term.
  await verb.click();
  await expect(page.getByLabel(t("en", "learning:term.text"), { exact: true })).toHaveValue("飲みました");

  await page.getByRole("button", { name: t("en", "reading:readings.hide") }).click();
  await expect(page.getByRole("button", { name: t("en", "reading:readings.show") })).toBeVisible();
  await expect(readings(page)).toHaveCount(0);
  await expect(page.locator(".reader-text a.word")).toHaveText(["昨日", "水", "を", "飲みました"]);

  await study(page, javaScriptEnabled, "zh");
  await addText(page, javaScriptEnabled, "茶", "我们喜欢喝茶。");
  await expect(page.locator(".reader-text a.word")).toHaveText(["我们", "喜欢", "喝茶"]);
  await expect(readings(page)).toHaveCount(0);
  const chinese = page.url();
  // Settings turn them on again.
  await page.goto("/account/settings");
  if (javaScriptEnabled) await waitForHydration(page);
  const box = page.getByLabel(t("en", "learning:settings.showReadings"));
  await expect(box).not.toBeChecked();
  await box.check();
  await page.getByRole("button", { name: t("en", "learning:settings.saveReadings") }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.readingsSaved.title"));
  await expect(page.getByLabel(t("en", "learning:settings.showReadings"))).toBeChecked();
  await page.goto(chinese);
  await expect(readings(page)).toHaveText(["wǒ", "men", "xǐ", "huan", "hē", "chá"]);
  await expect(page.getByRole("button", { name: t("en", "reading:readings.hide") })).toBeVisible();
});
