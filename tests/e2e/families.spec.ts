import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { chooseStudyLanguage, expect, signInFresh, t, test, waitForHydration } from "./support";
import { forwardedFor } from "./mail";

// Sign-ins from an address of this file's own: the sign-in limit per address (20 an hour) is not shared with other files.
test.use({ extraHTTPHeaders: forwardedFor() });

const wordLink = (page: Page, word: string) => page.locator("a.word", { hasText: new RegExp(`^${word}$`) }).first();
const panel = (page: Page) => page.locator(".word-panel");

/** No WCAG 2.1 AA violation in the light or the dark theme. */
async function expectAccessible(page: Page) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/**
 * Word families (ADR 061), with JavaScript on and off: a German text's "Hunde" proposes the learner's "Hund" in the
 * word panel; one press links it, the form takes the parent's meaning, and the word shows the parent's stage.
 */
test("links an inflected form to its parent from the reader's panel", async ({ page, javaScriptEnabled }) => {
  // A whole journey (sign-in, a term, a text, the link, the term page) with four accessibility checks.
  test.slow();
  await signInFresh(page, javaScriptEnabled, "families");
  await chooseStudyLanguage(page, javaScriptEnabled, "de");
  await expect(page.locator(".lead").first()).toContainText("German");

  // The learner knows "Hund" (learned) with its meaning.
  await page.goto("/account/terms/new");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "learning:term.text"), { exact: true }).fill("Hund");
  await page.getByLabel(t("en", "learning:term.meaning"), { exact: true }).fill("dog");
  await page.getByRole("button", { name: t("en", "learning:term.create") }).click();
  await expect(page.locator("h1")).toHaveText("Hund");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "learning:term.stage"), { exact: true }).selectOption("learned");
  await page.getByRole("button", { name: t("en", "learning:term.changeStage") }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.stageChanged.title"));

  await page.goto("/account/texts/new");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill("Die Hunde");
  await page.getByLabel(t("en", "reading:form.body"), { exact: true }).fill("Die Hunde bellen laut. Der Hund schläft.");
  await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
  await expect(page.locator("h1")).toHaveText("Die Hunde");
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(wordLink(page, "Hund")).toHaveClass(/\bw-learned\b/);
  await expect(wordLink(page, "Hunde")).toHaveClass(/\bw-new\b/);

  // The panel of "Hunde" proposes "Hund", with its meaning.
  await wordLink(page, "Hunde").click();
  await expect(panel(page).getByRole("heading", { level: 2 })).toContainText("Hunde");
  const family = panel(page).getByRole("group", { name: t("en", "learning:family.propose") });
  const link = family.getByRole("button", { name: t("en", "learning:family.link", { parent: "Hund" }) });
  await expect(link).toBeVisible();
  await expect(family).toContainText("dog");
  if (javaScriptEnabled) await expectAccessible(page);
  await link.click();

  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.linked.title"));
  // The form has no stage of its own yet: it shows its parent's; its panel names the parent and the meaning.
  await expect(wordLink(page, "Hunde")).toHaveClass(/\bw-learned\b/);
  await expect(panel(page)).toContainText(`${t("en", "learning:family.formOf")} Hund — dog`);
  await expect(panel(page)).toContainText("Hunde — dog");
  if (!javaScriptEnabled) expect(new URL(page.url()).hash).toMatch(/^#w-\d+$/);

  // The form's own page: the inherited meaning, and its parent.
  await panel(page).getByRole("link", { name: "Hunde", exact: true }).click();
  await expect(page.locator("h1")).toHaveText("Hunde");
  await expect(page.locator(".lead")).toHaveText("dog");
  await expect(page.locator(".term-family")).toContainText(`${t("en", "learning:family.formOf")} Hund — dog`);
  if (javaScriptEnabled) await expectAccessible(page);
});
