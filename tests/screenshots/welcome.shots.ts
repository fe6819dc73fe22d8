/**
 * Screenshots of a new learner's first visit to My home (see playwright.screenshots.config.ts): the welcome, the
 * welcome's steps, one with a server-rendered error, the first lesson, and My home afterwards with its next step (the
 * text begun and the starter list, then a review once a term is due), at the widths of SHOTS_WIDTHS (360 and 1280), light and dark.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, signInFresh, t, test, waitForHydration } from "../e2e/support";

const OUT = path.resolve("screenshots");
const WIDTHS = (process.env.SHOTS_WIDTHS ?? "360,1280").split(",").map(Number);

async function shootHere(page: Page, name: string, javaScriptEnabled: boolean) {
  const dir = path.join(OUT, `welcome-${javaScriptEnabled ? "js" : "nojs"}`);
  mkdirSync(dir, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 600 ? 740 : 800 });
      await page.screenshot({ path: path.join(dir, `${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
}

test("the welcome and My home's next step", async ({ page, javaScriptEnabled, consoleGuard }) => {
  consoleGuard.allow(/status of 400/);
  await signInFresh(page, javaScriptEnabled, "shots-welcome", { welcome: "keep" });
  await shootHere(page, "welcome", javaScriptEnabled);

  const main = page.locator("main");
  const next = main.getByRole("button", { name: t("en", "learning:welcome.next") });
  await main.getByRole("radio", { name: "German" }).check();
  await next.click();
  await expect(page).toHaveURL(/step=level/);
  await shootHere(page, "welcome-level", javaScriptEnabled);
  await main.locator('input[name="level"][value="beginner"]').check();
  await next.click();
  await expect(page).toHaveURL(/step=goal/);
  await shootHere(page, "welcome-goal", javaScriptEnabled);
  await main.getByRole("radio", { name: t("en", "learning:goal.own") }).check();
  const own = main.getByLabel(t("en", "learning:goal.ownLabel"));
  await own.evaluate((input: HTMLInputElement) => input.removeAttribute("max"));
  await own.fill("500");
  await main.getByRole("button", { name: t("en", "learning:welcome.finish") }).click();
  await expect(main.locator("#goal-error")).toBeVisible();
  await shootHere(page, "welcome-error", javaScriptEnabled);

  await main.getByRole("radio", { name: /^15 minutes/ }).check();
  await main.getByRole("button", { name: t("en", "learning:welcome.finish") }).click();
  await expect(page).toHaveURL(/\/account\/texts\//);
  await shootHere(page, "first-lesson", javaScriptEnabled);
  await page.goto("/account/home");
  if (javaScriptEnabled) await waitForHydration(page);
  await shootHere(page, "home-lesson", javaScriptEnabled);

  await page.goto("/account/explore/public?language=de&level=beginner");
  await page.getByRole("button", { name: t("en", "lists:public.addAll") }).click();
  await expect(page.getByText(t("en", "lists:public.owned")).first()).toBeVisible();
  await page.goto("/account/home");
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(main.locator('.next-action[data-next="review"]')).toBeVisible();
  await shootHere(page, "home-review", javaScriptEnabled);
});
