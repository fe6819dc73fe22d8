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

test("a signed-in learner's public list on a phone: rows of at most 72 px, a light add control, add all kept", async ({
  page,
  javaScriptEnabled,
}) => {
  await signInFresh(page, javaScriptEnabled, "lists-phone");
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/account/explore/public?language=en&level=beginner");
  if (javaScriptEnabled) await waitForHydration(page);
  const addAll = page.getByRole("button", { name: t("en", "lists:public.addAll") });
  await expect(addAll).toBeVisible();
  const rows = page.locator(".word-list > li");
  expect(await rows.count()).toBeGreaterThan(10);
  const heights = await rows.evaluateAll((items) => items.map((item) => item.getBoundingClientRect().height));
  expect(Math.max(...heights), "the tallest row, px").toBeLessThanOrEqual(72);
  expect(await brokenWords(page)).toEqual([]);
  // The one solid button is "Add the whole list"; a row's add control is a light one.
  const solid = await addAll.evaluate((button) => getComputedStyle(button).backgroundColor);
  const add = rows.first().getByRole("button");
  await expect(add).toBeVisible();
  expect(await add.evaluate((button) => getComputedStyle(button).backgroundColor)).not.toBe(solid);
  const box = (await add.boundingBox())!;
  expect(Math.min(box.width, box.height), "the add control's tap size, px").toBeGreaterThanOrEqual(44);
});

test("the landing page's sample-text cards line up: their levels, titles and lengths start at the same height", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  if (javaScriptEnabled) await waitForHydration(page);
  const cards = page.locator(".sample-cards > li");
  expect(await cards.count()).toBeGreaterThan(1);
  for (const part of [".eyebrow", "h3", ".hint"]) {
    const tops = await cards.evaluateAll(
      (items, selector) => items.map((item) => Math.round(item.querySelector(selector)!.getBoundingClientRect().top)),
      part,
    );
    const firstRow = tops.slice(0, 3);
    expect(new Set(firstRow).size, `${part} tops ${firstRow.join(", ")}`).toBe(1);
  }
});
