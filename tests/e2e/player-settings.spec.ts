/**
 * The player's settings in Settings (issue 59, ADR 141): stored on the server, a form that works without JavaScript,
 * read by the player; the player's own controls save them too.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { forwardedFor } from "./mail";
import { recordSpeech, spoken } from "./speech-recorder";
import { chooseStudyLanguage, expect, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const section = (page: Page) => page.locator("#player-settings");

async function openSettings(page: Page, javaScriptEnabled: boolean) {
  await page.goto("/account/settings");
  if (javaScriptEnabled) await waitForHydration(page);
}

test("the player's settings are saved in Settings, with and without JavaScript; a value not offered is refused", async ({
  page,
  javaScriptEnabled,
}) => {
  await signInFresh(page, javaScriptEnabled, "player-settings");
  await openSettings(page, javaScriptEnabled);
  const form = section(page);
  const pause = form.getByLabel(t("en", "account:player.pauseLength"));
  const speed = form.getByLabel(t("en", "account:player.speed"));
  const goOn = form.getByLabel(t("en", "account:player.goOn"));
  const next = form.getByLabel(t("en", "account:player.nextGrade"));
  // The defaults.
  await expect(pause).toHaveValue("3");
  await expect(speed).toHaveValue("1");
  await expect(goOn).not.toBeChecked();
  await expect(next).toHaveValue("good");
  if (javaScriptEnabled) {
    const { violations } = await new AxeBuilder({ page }).include("#player-settings").withTags(WCAG_21_AA).analyze();
    expect(violations.map((violation) => violation.id)).toEqual([]);
  }

  await pause.selectOption("5");
  await speed.selectOption("0.75");
  await goOn.check();
  await next.selectOption("easy");
  await form.getByRole("button", { name: t("en", "learning:settings.savePlayer") }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.playerSaved.title"));
  await openSettings(page, javaScriptEnabled);
  await expect(pause).toHaveValue("5");
  await expect(speed).toHaveValue("0.75");
  await expect(goOn).toBeChecked();
  await expect(next).toHaveValue("easy");

  // A hand-made form with a speed the form does not offer: 400, the section's message, nothing changed.
  const refused = await page.request.post("/account/settings", {
    form: { intent: "player", pause: "5", rate: "3", nextGrade: "easy" },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain(t("en", "learning:settings.errors.player"));
  await openSettings(page, javaScriptEnabled);
  await expect(speed).toHaveValue("0.75");
  await expect(goOn).toBeChecked();
});

test("the player reads with the settings from Settings, and its own controls save them for Settings", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the player reads aloud with JavaScript");
  await signInFresh(page, true, "player-settings-used");
  await chooseStudyLanguage(page, true, "de");
  const created = await page.request.post("/account/terms/new", {
    form: { text: "Hund", meaning: "dog", partOfSpeech: "noun", notes: "", sentence: "", translation: "" },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(created.status()).toBeGreaterThanOrEqual(302);
  await openSettings(page, true);
  await section(page).getByLabel(t("en", "account:player.speed")).selectOption("0.75");
  await section(page).getByLabel(t("en", "account:player.pauseLength")).selectOption("1");
  await section(page)
    .getByRole("button", { name: t("en", "learning:settings.savePlayer") })
    .click();
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.playerSaved.title"));

  await page.addInitScript(recordSpeech);
  await page.goto("/account/player");
  await waitForHydration(page);
  await page.getByRole("button", { name: t("en", "account:player.play") }).click();
  await expect.poll(() => spoken(page)).toHaveLength(2);
  expect((await spoken(page)).map((entry) => [entry.text, entry.rate])).toEqual([
    ["Hund", 0.75],
    ["dog", 0.75],
  ]);

  // The player's own control: applied at once, saved for the learner.
  await page.getByText(t("en", "account:player.settings")).click();
  const saved = page.waitForResponse(
    (response) => response.request().method() === "POST" && new URL(response.url()).pathname.includes("player"),
  );
  await page.getByLabel(t("en", "account:player.speed")).selectOption("1.1");
  expect((await saved).status()).toBe(200);
  await openSettings(page, true);
  await expect(section(page).getByLabel(t("en", "account:player.speed"))).toHaveValue("1.1");
  await expect(section(page).getByLabel(t("en", "account:player.pauseLength"))).toHaveValue("1");
});
