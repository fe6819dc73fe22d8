/**
 * Messages cover no action: on wide screens they sit in the bottom-right corner or, when an action is there, the
 * nearest place clear of it (with JavaScript) or in the page's flow under the header (without); on phones in the flow.
 * Checked by the boxes of every visible control against the messages' boxes, on the welcome of My home and on a
 * public list after adding a term, at 1280 and 360 px.
 */
import type { Page } from "@playwright/test";
import { forwardedFor } from "./mail";
import { expect, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const ACTIONS = "a[href], button, input:not([type=hidden]), select, textarea, summary";

/** The visible controls a shown message overlaps, by their text or name. */
async function coveredActions(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const toasts = [...document.querySelectorAll(".toast")]
      .map((toast) => toast.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0);
    const region = document.querySelector(".toast-region")!;
    const covered: string[] = [];
    for (const action of document.querySelectorAll(selector)) {
      if (region.contains(action) || !action.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
        continue;
      const a = action.getBoundingClientRect();
      if (a.width === 0 || a.height === 0 || a.bottom <= 0 || a.top >= window.innerHeight) continue;
      if (toasts.some((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom))
        covered.push((action.textContent || action.getAttribute("aria-label") || action.tagName).trim().slice(0, 40));
    }
    return covered;
  }, ACTIONS);
}

/** The message is shown, and once placed it covers nothing. */
async function expectNothingCovered(page: Page, what: string) {
  await expect(page.locator(".toast").first()).toBeVisible();
  await expect.poll(() => coveredActions(page), { message: what, timeout: 3_000 }).toEqual([]);
}

for (const width of [1280, 360]) {
  test(`at ${width} px the message after signing in covers none of the welcome's controls`, async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await signInFresh(page, javaScriptEnabled, `toast-welcome-${width}`, { welcome: "keep" });
    await expectNothingCovered(page, `My home at ${width} px`);
  });

  test(`at ${width} px the message after adding a term covers none of the public list's controls`, async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await signInFresh(page, javaScriptEnabled, `toast-list-${width}`);
    await page.goto("/account/explore/public?language=en&level=beginner");
    if (javaScriptEnabled) await waitForHydration(page);
    // A row low in the window: its neighbours' "Add" buttons are where the corner's message would be.
    await page.evaluate(() => window.scrollTo(0, 600));
    const adds = page.locator(".word-list .word-add");
    const inView = await adds.evaluateAll((buttons) =>
      buttons.findLastIndex((button) => button.getBoundingClientRect().bottom < window.innerHeight - 120),
    );
    await adds.nth(Math.max(inView, 0)).click();
    await expect(page.getByText(t("en", "lists:public.owned")).first()).toBeVisible();
    await expectNothingCovered(page, `the public list at ${width} px`);
  });
}
