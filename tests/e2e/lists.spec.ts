/**
 * Word lists that read like lists: on a phone no word breaks across lines and a term takes at most ~110 px of page;
 * the available lists come in learning order with a visible disclosure marker; "Add the whole list" becomes a
 * disabled "All added" once every term is in.
 */
import type { Page } from "@playwright/test";
import { forwardedFor } from "./mail";
import { expect, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const LEVEL_ORDER = ["beginner", "elementary", "intermediate", "upper_intermediate", "advanced", "expert"];

/** Words of the list drawn on more than one line (a word's range with boxes on two lines), and labels clipped. */
async function brokenWords(page: Page) {
  return page.locator(".word-list").evaluate((list) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(list, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
    for (const button of list.querySelectorAll("button"))
      if (button.scrollWidth > button.clientWidth + 1) broken.push(`button ${button.textContent}`);
    return broken;
  });
}

for (const path of ["/explore", "/de/explore"]) {
  test(`${path} on a phone: no word broken, at most ~110 px per term`, async ({ page, javaScriptEnabled }) => {
    for (const width of [320, 360]) {
      await page.setViewportSize({ width, height: 740 });
      await page.goto(path);
      if (javaScriptEnabled) await waitForHydration(page);
      const rows = page.locator(".word-list > li");
      const count = await rows.count();
      expect(count).toBeGreaterThan(10);
      expect(await brokenWords(page), `${path} at ${width} px`).toEqual([]);
      const height = (await page.locator(".word-list").boundingBox())!.height;
      expect(height / count, `${path} at ${width} px: px per term`).toBeLessThanOrEqual(width < 360 ? 125 : 110);
    }
  });
}

test("the available lists come in learning order, behind a visible disclosure marker", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto("/explore");
  if (javaScriptEnabled) await waitForHydration(page);
  const summary = page.locator("main details > summary").filter({ hasText: t("en", "lists:public.available") });
  const marker = await summary.evaluate((element) => getComputedStyle(element, "::before").content);
  expect(marker).toContain("▸");
  await summary.click();
  const hrefs = await page
    .locator("main details li a")
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href)));
  const levels = (language: string) =>
    hrefs.filter((url) => url.searchParams.get("language") === language).map((url) => url.searchParams.get("level")!);
  const english = levels("en");
  expect(english.length).toBeGreaterThan(1);
  expect(english).toEqual([...english].sort((a, b) => LEVEL_ORDER.indexOf(a) - LEVEL_ORDER.indexOf(b)));
  expect(english[0]).toBe("beginner");
});

test('"Add the whole list" becomes a disabled "All added" once every term is in', async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(60_000);
  await signInFresh(page, javaScriptEnabled, "lists-all-added");
  await page.goto("/account/explore/public?language=en&level=beginner");
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(page.getByRole("button", { name: t("en", "lists:public.allAdded") })).toHaveCount(0);
  await page.getByRole("button", { name: t("en", "lists:public.addAll") }).click();
  await expect(page.getByText(t("en", "lists:public.owned")).first()).toBeVisible();
  const allAdded = page.getByRole("button", { name: t("en", "lists:public.allAdded") });
  await expect(allAdded).toBeDisabled();
  await expect(page.getByRole("button", { name: t("en", "lists:public.addAll") })).toHaveCount(0);
  await expect(page.locator(".word-list button")).toHaveCount(0);
});
