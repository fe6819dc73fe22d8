/**
 * The reader's "Listen" (issue 59, ADR 141): the page read sentence by sentence in the text's language, the sentence
 * being read highlighted, pause and resume; speech synthesis is a recorder (speech-recorder.ts) whose utterances last
 * until the test ends them.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { finishSpeech, holdSpeech, recordSpeech, spoken } from "./speech-recorder";
import { chooseStudyLanguage, expect, signInFresh, t, test, waitForHydration } from "./support";
import { forwardedFor } from "./mail";

// Sign-ins from an address of this file's own: the sign-in limit per address (20 an hour) is not shared with other files.
test.use({ extraHTTPHeaders: forwardedFor() });

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const SENTENCES = ["Der Hund schläft.", "Die Katze spielt im Garten.", "Der Vogel singt."];

async function createText(page: Page, javaScriptEnabled: boolean): Promise<void> {
  await chooseStudyLanguage(page, javaScriptEnabled, "de");
  await page.goto("/account/texts/new");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill("Tiere");
  await page
    .getByLabel(t("en", "reading:form.body"), { exact: true })
    .fill(`${SENTENCES[0]} ${SENTENCES[1]}\n\n${SENTENCES[2]}`);
  await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
  await expect(page.locator("h1")).toHaveText("Tiere");
}

/** The text the "listen" highlight covers now; null without one. */
const highlighted = (page: Page) =>
  page.evaluate(() => {
    const highlight = CSS.highlights.get("listen");
    return highlight ? [...highlight].map((range) => range.toString()).join("") : null;
  });

test("Listen reads the page sentence by sentence, highlighted, with pause and resume", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "Listen reads aloud with JavaScript");
  await signInFresh(page, true, "listen");
  await createText(page, true);
  await page.addInitScript(recordSpeech);
  await page.reload();
  await waitForHydration(page);
  await holdSpeech(page);
  const status = page.locator(".listen .listen-position");

  await page.getByRole("button", { name: t("en", "reading:listen.start"), exact: true }).click();
  await expect.poll(() => spoken(page)).toHaveLength(1);
  expect(await spoken(page)).toEqual([{ text: SENTENCES[0], lang: "de-DE", voice: "de-DE", rate: 1 }]);
  expect(await highlighted(page)).toBe(SENTENCES[0]);
  await expect(status).toHaveText(t("en", "reading:listen.position", { at: 1, count: 3 }));
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
    expect(violations.map((violation) => violation.id)).toEqual([]);
  }

  await finishSpeech(page);
  await expect.poll(() => highlighted(page)).toBe(SENTENCES[1]);
  await expect(status).toHaveText(t("en", "reading:listen.position", { at: 2, count: 3 }));

  // Pause: the place and its highlight stay, nothing more is said.
  await page.getByRole("button", { name: t("en", "reading:listen.pause"), exact: true }).click();
  const resume = page.getByRole("button", { name: t("en", "reading:listen.resume"), exact: true });
  await expect(resume).toBeVisible();
  expect(await highlighted(page)).toBe(SENTENCES[1]);
  await expect(status).toHaveText(t("en", "reading:listen.position", { at: 2, count: 3 }));
  expect(await spoken(page)).toHaveLength(2);

  // Resume: that sentence again, then the next paragraph's.
  await resume.click();
  await expect.poll(() => spoken(page)).toHaveLength(3);
  await finishSpeech(page);
  await expect.poll(() => highlighted(page)).toBe(SENTENCES[2]);
  await finishSpeech(page);
  await expect(page.getByRole("button", { name: t("en", "reading:listen.start"), exact: true })).toBeVisible();
  expect(await highlighted(page)).toBeNull();
  await expect(status).toHaveText("");
  expect((await spoken(page)).map((entry) => entry.text)).toEqual([
    SENTENCES[0],
    SENTENCES[1],
    SENTENCES[1],
    SENTENCES[2],
  ]);
});

test("Listen reads at the speed the learner set for the player", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "Listen reads aloud with JavaScript");
  await signInFresh(page, true, "listen-rate");
  const saved = await page.request.post("/account/settings", {
    form: { intent: "player", pause: "3", rate: "0.75", nextGrade: "good" },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(saved.status()).toBe(302);
  await createText(page, true);
  await page.addInitScript(recordSpeech);
  await page.reload();
  await waitForHydration(page);
  await holdSpeech(page);
  await page.getByRole("button", { name: t("en", "reading:listen.start"), exact: true }).click();
  await expect.poll(() => spoken(page)).toHaveLength(1);
  expect(await spoken(page)).toEqual([{ text: SENTENCES[0], lang: "de-DE", voice: "de-DE", rate: 0.75 }]);
  await page.getByRole("button", { name: t("en", "reading:listen.stop"), exact: true }).click();
});

test("without JavaScript the reader says that listening needs JavaScript", async ({ page, javaScriptEnabled }) => {
  test.skip(javaScriptEnabled, "the page without JavaScript");
  await signInFresh(page, false, "listen-off");
  await createText(page, false);
  await expect(page.getByText(t("en", "reading:listen.needsJavaScript"))).toBeVisible();
  await expect(page.getByRole("button", { name: t("en", "reading:listen.start"), exact: true })).toHaveCount(0);
});
