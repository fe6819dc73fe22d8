import type { Page } from "@playwright/test";
import { expect, signInFresh, t, test, waitForHydration } from "./support";
import { forwardedFor } from "./mail";

// Sign-ins from an address of this file's own: the sign-in limit per address (20 an hour) is not shared with other files.
test.use({ extraHTTPHeaders: forwardedFor() });

/** The forms whose one choice can act alone: with JavaScript a change submits, without it a button does. */
const SWITCHES = [
  { path: "/account/settings", select: "#study-language", button: "learning:studyLanguage.submit" },
  { path: "/account/settings", select: "#level", button: "learning:level.submit" },
  { path: "/account/statistics", select: "#days", button: "learning:statistics.show" },
  { path: "/account/explore/public", select: "#public-level", button: "lists:public.show" },
  { path: "/account/home", select: "#language-switch-select", button: "language.submit" },
  { path: "/account/home", select: "#theme-switch-select", button: "theme.submit" },
];

async function open(page: Page, path: string, javaScriptEnabled: boolean) {
  await page.goto(path);
  if (javaScriptEnabled) await waitForHydration(page);
}

test("selects that act alone show their submit button only without JavaScript", async ({ page, javaScriptEnabled }) => {
  await signInFresh(page, javaScriptEnabled, "switches");
  for (const { path, select, button } of SWITCHES) {
    await open(page, path, javaScriptEnabled);
    const form = page.locator("form").filter({ has: page.locator(select) });
    await expect(form.getByRole("button", { name: t("en", button), exact: true })).toHaveCount(
      javaScriptEnabled ? 0 : 1,
    );
  }
});

test("a changed choice acts at once with JavaScript, and through its button without", async ({
  page,
  javaScriptEnabled,
}) => {
  await signInFresh(page, javaScriptEnabled, "switches");
  const choose = async (select: string, value: string, button: string) => {
    await page.locator(select).selectOption(value);
    if (!javaScriptEnabled) await page.getByRole("button", { name: t("en", button), exact: true }).click();
  };
  await open(page, "/account/statistics", javaScriptEnabled);
  await choose("#days", "90", "learning:statistics.show");
  await expect(page).toHaveURL(/[?&]days=90\b/);
  await open(page, "/account/explore/public", javaScriptEnabled);
  await choose("#public-level", "advanced", "lists:public.show");
  await expect(page).toHaveURL(/[?&]level=advanced\b/);
  await open(page, "/account/settings", javaScriptEnabled);
  await choose("#level", "intermediate", "learning:level.submit");
  await expect(page.getByRole("status")).toBeVisible();
  await page.reload();
  await expect(page.locator("#level")).toHaveValue("intermediate");
  await choose("#theme-switch-select", "dark", "theme.submit");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
});
