/**
 * A scheduler fitted to each learner (ADR 062), with JavaScript on and off: the desired retention is chosen in the
 * settings and refused when it is not one of the choices; a learner who imports a review history gets parameters fitted
 * to it in the background, and the statistics then say so and show how well the defaults and their own predict it.
 */
import { writeFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { asExport, syntheticHistory } from "../support/synthetic-reviews";
import { expect, signInFresh, t, test, waitForHydration } from "./support";
import { forwardedFor } from "./mail";

// Sign-ins from an address of this file's own: the sign-in limit per address (20 an hour) is not shared with other files.
test.use({ extraHTTPHeaders: forwardedFor() });

async function open(page: Page, url: string, javaScriptEnabled: boolean) {
  await page.goto(url);
  if (javaScriptEnabled) await waitForHydration(page);
}

test("chooses a desired retention in the settings, checked on the server", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  await signInFresh(page, javaScriptEnabled, "retention");
  await open(page, "/account/settings", javaScriptEnabled);
  const retention = page.getByLabel(t("en", "learning:settings.retention"));
  await expect(retention).toHaveValue("0.90");
  await expect(retention.locator("option")).toHaveCount(18);
  await expect(retention.locator("option").first()).toHaveText("80%");
  await expect(retention.locator("option").last()).toHaveText("97%");
  // The sentence on the workload, its figures from the forgetting curve.
  await expect(page.locator("#desiredRetention-hint")).toContainText(
    "at 95% the gaps between reviews are about 2.5 times shorter than at 90%",
  );
  await expect(page.locator("#desiredRetention-hint")).toContainText("at 80% they are about 3.3 times longer");
  await retention.selectOption("0.95");
  await page.getByRole("button", { name: t("en", "learning:settings.save") }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.settingsSaved.title"));
  await open(page, "/account/settings", javaScriptEnabled);
  await expect(page.getByLabel(t("en", "learning:settings.retention"))).toHaveValue("0.95");
  await open(page, "/account/statistics", javaScriptEnabled);
  await expect(page.locator(".scheduler-fit")).toContainText("default parameters, aiming at a retention of 95%");

  // A value the list does not offer, as a hand-made form would send it: the form again with the message, a 400.
  consoleGuard.allow(/status of 400 \(Bad Request\) \(http:\/\/[^)]+\/account\/settings(\.data)?\)$/);
  await open(page, "/account/settings", javaScriptEnabled);
  await page.locator("#desiredRetention").evaluate((select: HTMLSelectElement) => {
    select.add(new Option("99%", "0.99"));
    select.value = "0.99";
  });
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/account/settings")),
    page.getByRole("button", { name: t("en", "learning:settings.save") }).click(),
  ]);
  expect(response.status()).toBe(400);
  await expect(page.locator("#desiredRetention-error")).toHaveText(
    t("en", "learning:settings.errors.desiredRetention"),
  );
  await open(page, "/account/settings", javaScriptEnabled);
  await expect(page.getByLabel(t("en", "learning:settings.retention"))).toHaveValue("0.95");
});

test("a learner's imported history gets fitted parameters, shown in the statistics", async ({
  page,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(60_000);
  await signInFresh(page, javaScriptEnabled, "fitted");
  await open(page, "/account/statistics", javaScriptEnabled);
  await expect(page.locator(".scheduler-fit")).toContainText("default parameters, aiming at a retention of 90%");

  const history = syntheticHistory({ total: 1_200, perTerm: 8, spreadDays: 200, seed: 5 });
  const file = testInfo.outputPath("history.json");
  writeFileSync(file, JSON.stringify(asExport(history, { language: "en" })));
  await open(page, "/account/import", javaScriptEnabled);
  await page.getByLabel(t("en", "learning:import.file")).setInputFiles(file);
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await page.getByRole("button", { name: `Import ${history.length} terms` }).click();
  await expect(page.locator(".toast")).toContainText(`${history.length} terms added`);

  // The fit runs in the background a moment after the import; the page says so once it is stored.
  await expect(async () => {
    await open(page, "/account/statistics", javaScriptEnabled);
    await expect(page.locator(".fit-table")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.locator(".scheduler-fit")).toContainText(
    "your reviews are scheduled with FSRS parameters fitted to your own 1,200 reviews, aiming at a retention of 90%",
  );
  const cells = page.locator(".fit-table tbody tr");
  await expect(cells.nth(0).locator("th")).toHaveText("Log loss");
  const figures = async (row: number) =>
    (await cells.nth(row).locator("td").allTextContents()).map((text) => Number(text));
  const [defaultLoss, fittedLoss] = await figures(0);
  const [defaultRmse, fittedRmse] = await figures(1);
  expect(fittedLoss).toBeGreaterThan(0);
  expect(fittedLoss).toBeLessThan(defaultLoss!);
  expect(fittedRmse).toBeLessThan(defaultRmse!);
});
