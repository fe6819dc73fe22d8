/**
 * Screenshots of the reader with readings (see playwright.screenshots.config.ts): a Japanese text with furigana and a
 * Chinese text with pinyin, then the same pages with the readings hidden, at 360 and 1280 px, light and dark. The line
 * spacing must stay even with ruby over some words and none over others.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { chooseStudyLanguage, expect, signInFresh, t, test, waitForHydration } from "../e2e/support";

const OUT = path.resolve("screenshots", "readings");
const SCHEMES = ["light", "dark"] as const;
const WIDTHS = [360, 1280];

const TEXTS = {
  ja: [
    "昨日、友達と駅の近くの喫茶店で美味しいコーヒーを飲みました。私は毎朝六時に起きて、公園を散歩してから朝ご飯を食べます。",
    "日本語を勉強するのは難しいですが、とても楽しいと思います。週末は家族と一緒に山へ行って、きれいな景色を見たいです。",
  ].join("\n\n"),
  zh: [
    "昨天我和朋友在学校附近的咖啡馆喝了一杯咖啡。我每天早上六点起床，先去公园散步，然后吃早饭。",
    "学习中文虽然很难，但是我觉得非常有意思。周末我们全家一起去山上看美丽的风景。",
  ].join("\n\n"),
};

async function shoot(page: Page, name: string) {
  for (const scheme of SCHEMES)
    for (const width of WIDTHS) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: width < 600 ? 740 : 800 });
      await page.screenshot({ path: path.join(OUT, `${name}-${width}-${scheme}.png`) });
    }
}

test("the reader with furigana and pinyin, shown and hidden", async ({ page, javaScriptEnabled }) => {
  mkdirSync(OUT, { recursive: true });
  await signInFresh(page, javaScriptEnabled, "readings-shots");
  for (const [language, body] of Object.entries(TEXTS)) {
    await page.goto("/account/home");
    await chooseStudyLanguage(page, javaScriptEnabled, language);
    await page.goto("/account/texts/new");
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill(`Readings ${language}`);
    await page.getByLabel(t("en", "reading:form.body"), { exact: true }).fill(body);
    await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
    await expect(page.locator(".reader-text rt").first()).toBeVisible();
    await shoot(page, `${language}-shown`);
    await page.getByRole("button", { name: t("en", "reading:readings.hide") }).click();
    await expect(page.locator(".reader-text rt")).toHaveCount(0);
    await shoot(page, `${language}-hidden`);
    await page.getByRole("button", { name: t("en", "reading:readings.show") }).click();
    await expect(page.locator(".reader-text rt").first()).toBeVisible();
  }
});
