/**
 * The focused review (issue 55): on a phone with a touch screen the four grades sit in a bar at the bottom, tall
 * enough to tap, each its own readable colour, with no footer, no visible H1 and no word of keys; on a wide screen the
 * bar stays at one height on both sides of the card. In three locales, with and without JavaScript, light and dark.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { forwardedFor } from "./mail";
import { expect, localePath, MATRIX_LOCALES, signInFresh, t, test, type Locale } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const GRADES = ["again", "hard", "good", "easy"];

async function addTerms(page: Page, count: number, prefix: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await page.request.post("/account/terms/new", {
      form: { text: `${prefix}${i}`, meaning: `meaning ${i}`, partOfSpeech: "noun", notes: "" },
      headers: { Origin: new URL(page.url()).origin },
      maxRedirects: 0,
    });
    expect(response.status(), `term ${i}`).toBeLessThan(400);
  }
  // The adds' messages show on the next page the server renders, as on each redirect a browser follows: My home.
  await page.goto("/account/home");
}

/** Each grade button's box, background and the WCAG contrast of its text on it, as the browser computed them. */
const gradeButtons = (page: Page) =>
  page.locator(".review-bar .grade-button").evaluateAll((buttons) => {
    const channels = (colour: string) =>
      colour
        .match(/[\d.]+/g)!
        .slice(0, 3)
        .map(Number);
    const luminance = (colour: string) => {
      const [r, g, b] = channels(colour).map((value) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    return buttons.map((button) => {
      const style = getComputedStyle(button);
      const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
      const box = button.getBoundingClientRect();
      return {
        top: box.top,
        bottom: box.bottom,
        height: box.height,
        background: style.backgroundColor,
        contrast: (light! + 0.05) / (dark! + 0.05),
        label: (button as HTMLElement).innerText,
      };
    });
  });

/** Axe runs in the page: with JavaScript only. */
async function expectNoAxeViolations(page: Page, javaScriptEnabled: boolean): Promise<void> {
  if (!javaScriptEnabled) return;
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.target.join(" ")}`)).toEqual([]);
}

const reveal = (page: Page, lng: Locale) => page.getByRole("button", { name: t(lng, "learning:review.show") }).click();

test.describe("on a phone with a touch screen", () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  test("the grades sit in a bar at the bottom, each tall, coloured, labelled and readable, in en, de and uk", async ({
    page,
    javaScriptEnabled,
  }) => {
    test.setTimeout(90_000);
    await signInFresh(page, javaScriptEnabled, "focus-phone");
    await addTerms(page, 3, "daumen");
    for (const lng of MATRIX_LOCALES) {
      await page.goto(localePath(lng, "/account/review"));
      // Only the way out in the header; no footer; the heading is there for screen readers only.
      await expect(page.locator("header").getByRole("link", { name: t(lng, "nav.leaveReview") })).toBeVisible();
      await expect(page.locator("header nav")).toHaveCount(0);
      await expect(page.locator("footer")).toHaveCount(0);
      await expect(page.getByRole("heading", { level: 1, name: t(lng, "learning:review.title") })).toHaveCount(1);
      await expect(page.locator("h1")).toHaveClass(/visually-hidden/);
      await reveal(page, lng);
      await expect(page.locator(".review-bar .grade-button")).toHaveCount(4);
      // No keys on a touch screen: neither their text nor the setting nor the numbers on the buttons.
      await expect(page.getByText(t(lng, "learning:review.keys"))).toBeHidden();
      await expect(page.getByRole("button", { name: t(lng, "learning:review.turnOff") })).toBeHidden();
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const buttons = await gradeButtons(page);
        const bar = (await page.locator(".review-bar").boundingBox())!;
        expect(Math.abs(bar.y + bar.height - 740), "the bar ends at the screen's bottom edge").toBeLessThanOrEqual(1);
        for (const [index, button] of buttons.entries()) {
          expect(button.label).toContain(t(lng, `learning:review.grades.${GRADES[index]}`));
          expect(button.label).not.toMatch(/^\d ·/);
          expect(button.height, `${GRADES[index]} height`).toBeGreaterThanOrEqual(44);
          // The thumb's zone: the lowest quarter of the screen.
          expect(button.top, `${GRADES[index]} top`).toBeGreaterThanOrEqual(740 * 0.75);
          expect(button.contrast, `${GRADES[index]} contrast in ${scheme}`).toBeGreaterThanOrEqual(4.5);
        }
        expect(new Set(buttons.map((button) => button.background)).size, `four colours in ${scheme}`).toBe(4);
        // One row: the four share their top edge.
        expect(new Set(buttons.map((button) => Math.round(button.top))).size).toBe(1);
        await expectNoAxeViolations(page, javaScriptEnabled);
      }
      await page.emulateMedia({ colorScheme: "light" });
      if (process.env.REVIEW_SHOTS) {
        await page.screenshot({ path: `${process.env.REVIEW_SHOTS}/phone-${lng}-${javaScriptEnabled}.png` });
      }
      await page.getByRole("button", { name: new RegExp(t(lng, "learning:review.grades.good")) }).click();
      await expect(page.locator(".review-bar .grade-button")).toHaveCount(0);
    }
  });
});

test("on a wide screen the bar is centred under the card at one height before and after the reveal", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInFresh(page, javaScriptEnabled, "focus-desk");
  await addTerms(page, 2, "breit");
  await page.goto("/account/review");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoAxeViolations(page, javaScriptEnabled);
  }
  await page.emulateMedia({ colorScheme: "light" });
  const before = (await page.locator(".review-bar").boundingBox())!;
  const card = (await page.locator(".review-card").boundingBox())!;
  await reveal(page, "en");
  await expect(page.locator(".review-bar .grade-button")).toHaveCount(4);
  const after = (await page.locator(".review-bar").boundingBox())!;
  expect(after.y).toBeCloseTo(before.y, 0);
  expect(after.height).toBeCloseTo(before.height, 0);
  expect(before.y).toBeGreaterThan(card.y + card.height - 1);
  const buttons = await page.locator(".review-bar .grades").boundingBox();
  // Centred under the card.
  expect(Math.abs(buttons!.x + buttons!.width / 2 - (card.x + card.width / 2))).toBeLessThanOrEqual(1);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const button of await gradeButtons(page)) expect(button.contrast).toBeGreaterThanOrEqual(4.5);
    await expectNoAxeViolations(page, javaScriptEnabled);
    if (process.env.REVIEW_SHOTS) {
      await page.screenshot({ path: `${process.env.REVIEW_SHOTS}/desk-${scheme}-${javaScriptEnabled}.png` });
    }
  }
});
