import type { Page } from "@playwright/test";
import { noteTypeDeck, packageOf } from "../support/anki-files";
import { forwardedFor } from "./mail";
import { chooseStudyLanguage, expect, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

/** Shared decks as other tools write them: field names, notes, and what a learner expects of them. */
const DECKS = [
  {
    name: "Japanese_Core.apkg",
    fields: ["Expression", "Reading", "Meaning"],
    notes: [
      ["先週", "せんしゅう", "last week"],
      ["<span>猫</span>", "ねこ", "cat"],
    ],
    mapping: ["text", "reading", "meaning"],
    first: { text: "先週", reading: "せんしゅう", meaning: "last week" },
  },
  {
    name: "Chinese_HSK1.apkg",
    fields: ["Hanzi", "Pinyin", "English"],
    notes: [
      ["你好", "nǐ hǎo", "hello"],
      ["谢谢", "xiè xie", "thank you"],
    ],
    mapping: ["text", "reading", "meaning"],
    first: { text: "你好", reading: "nǐ hǎo", meaning: "hello" },
  },
  {
    name: "French_Basics.apkg",
    fields: ["Front", "Back"],
    notes: [
      ["<b>la maison</b>", "<div>the house</div>"],
      ["le chat&nbsp;<img src='chat.jpg'>", "the cat<br>[sound:chat.mp3]"],
    ],
    mapping: ["text", "meaning"],
    first: { text: "la maison", meaning: "the house" },
  },
  {
    name: "Japonais_Francais.apkg",
    fields: ["Question", "Answer", "Precision"],
    notes: Array.from({ length: 186 }, (_, i) => [`単語${i}`, `le mot ${i}`, i === 0 ? "nom" : ""]),
    mapping: ["text", "meaning", "notes"],
    first: { text: "単語0", meaning: "le mot 0" },
  },
];

async function open(page: Page, url: string, javaScriptEnabled: boolean) {
  await page.goto(url);
  if (javaScriptEnabled) await waitForHydration(page);
}

for (const deck of DECKS)
  test(`imports ${deck.name} as the preview proposes, without any change by the learner`, async ({
    page,
    javaScriptEnabled,
  }) => {
    await signInFresh(page, javaScriptEnabled, "decks");
    await open(page, "/account/import", javaScriptEnabled);
    await page.getByLabel(t("en", "learning:import.file")).setInputFiles({
      name: deck.name,
      mimeType: "application/octet-stream",
      buffer: packageOf(noteTypeDeck(deck.fields, deck.notes)),
    });
    await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
    await expect(page).toHaveURL(/\/account\/import\?draft=/);
    if (javaScriptEnabled) await waitForHydration(page);
    for (const [i, target] of deck.mapping.entries())
      await expect(page.getByLabel(`Column ${i + 1} (${deck.fields[i]})`)).toHaveValue(target);
    const count = deck.notes.length;
    await expect(page.locator(".import-summary")).toContainText(`${count} new terms will be added`);
    const first = page.locator(".import-sample tbody tr").first();
    await expect(first.locator("td").nth(1)).toHaveText(deck.first.text);
    const reading = "reading" in deck.first ? 1 : 0;
    if (reading) await expect(first.locator("td").nth(2)).toHaveText(deck.first.reading!);
    await expect(first.locator("td").nth(2 + reading)).toHaveText(deck.first.meaning);
    await page.getByRole("button", { name: `Import ${count} terms` }).click();
    await expect(page.locator(".toast")).toContainText(`${count} terms added`);
  });

test("lists a problem shared by many rows once, with how many rows have it", async ({ page, javaScriptEnabled }) => {
  await signInFresh(page, javaScriptEnabled, "decks");
  await open(page, "/account/import", javaScriptEnabled);
  // Terms that are only pictures: nothing of them is text.
  const notes = [
    ...Array.from({ length: 186 }, (_, i) => [`<img src="${i}.jpg">`, `picture ${i}`]),
    ["le pain", "the bread"],
    ["x".repeat(201), "too long"],
  ];
  await page.getByLabel(t("en", "learning:import.file")).setInputFiles({
    name: "pictures.apkg",
    mimeType: "application/octet-stream",
    buffer: packageOf(noteTypeDeck(["Front", "Back"], notes)),
  });
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await expect(page).toHaveURL(/\/account\/import\?draft=/);
  await expect(page.locator(".import-summary")).toContainText("187 rows with problems skipped");
  const problems = page.locator(".import-problems li");
  await expect(problems).toHaveText([
    "186 rows (first: line 1): the term is empty.",
    "Line 188: the term is longer than 200 characters.",
  ]);
  await expect(page.locator(".import-sample tbody tr")).toHaveCount(1);
  await expect(page.locator(".import-sample tbody")).toContainText("the bread");
});

test("keeps a deck's reading apart from its meaning: on the term page, editable, and on the answer side", async ({
  page,
  javaScriptEnabled,
}) => {
  await signInFresh(page, javaScriptEnabled, "decks");
  await open(page, "/account/import", javaScriptEnabled);
  const notes = [["先週", '<span class="reading">せんしゅう</span> la semaine dernière', ""]];
  await page.getByLabel(t("en", "learning:import.file")).setInputFiles({
    name: "Japonais.apkg",
    mimeType: "application/octet-stream",
    buffer: packageOf(noteTypeDeck(["Question", "Answer", "Precision"], notes)),
  });
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await expect(page).toHaveURL(/\/account\/import\?draft=/);
  await expect(page.locator(".import-sample tbody td")).toHaveText([
    "1",
    "先週",
    "せんしゅう",
    "la semaine dernière",
    "",
    "",
    "",
  ]);
  await page.getByRole("button", { name: "Import 1 term" }).click();
  await expect(page.locator(".toast")).toContainText("1 term added");
  await page.getByRole("link", { name: "先週" }).first().click();
  await expect(page.locator(".term-reading")).toHaveText("せんしゅう");
  await expect(page.locator(".lead")).toHaveText("la semaine dernière");
  if (javaScriptEnabled) await waitForHydration(page);
  const field = page.getByLabel(t("en", "learning:term.reading"));
  await expect(field).toHaveValue("せんしゅう");
  await field.fill("せん しゅう");
  await page.getByRole("button", { name: t("en", "learning:term.save") }).click();
  await expect(page.locator(".term-reading")).toHaveText("せん しゅう");

  await open(page, "/account/review", javaScriptEnabled);
  await expect(page.locator(".review-term")).toHaveText("先週");
  await expect(page.locator("main")).not.toContainText("せん しゅう");
  await page.getByRole("button", { name: t("en", "learning:review.show") }).click();
  await expect(page.locator(".review-reading")).toHaveText("せん しゅう");
  await expect(page.getByText("la semaine dernière")).toBeVisible();
});

test("a Japanese word added from the reader takes the reading the reader shows", async ({
  page,
  javaScriptEnabled,
}) => {
  await signInFresh(page, javaScriptEnabled, "decks");
  await page.goto("/account/home");
  await chooseStudyLanguage(page, javaScriptEnabled, "ja");
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.studyLanguageSaved.title"));
  await open(page, "/account/texts/new", javaScriptEnabled);
  await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill("水");
  await page.getByLabel(t("en", "reading:form.body"), { exact: true }).fill("昨日、水を飲みました。");
  await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
  // The first text of a language in the server's life waits for its analyser to load.
  await expect(page.locator("h1")).toHaveText("水", { timeout: 20_000 });
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator(".reader-text a.word").nth(1).click();
  await expect(page.getByLabel(t("en", "learning:term.text"), { exact: true })).toHaveValue("水");
  await expect(page.getByLabel(t("en", "learning:term.reading"))).toHaveValue("みず");
  await page.getByLabel(t("en", "learning:term.meaning"), { exact: true }).fill("water");
  await page
    .locator(".word-panel")
    .getByRole("button", { name: t("en", "reading:panel.addTerm") })
    .click();
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.created.title"));
  await expect(page.locator(".word-panel")).toContainText("水 (みず) — water");
});

test("refuses a note type with more fields than the import maps, saying so, and imports nothing", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  // The refusal is a 422, which the browser reports on its console.
  consoleGuard.allow(/status of 422 \(Unprocessable (Entity|Content)\) \(http:\/\/[^)]+\/account\/import(\.data)?\)$/);
  await signInFresh(page, javaScriptEnabled, "decks");
  await open(page, "/account/import", javaScriptEnabled);
  const fields = Array.from({ length: 51 }, (_, i) => `Field ${i + 1}`);
  const notes = [fields.map((_, i) => (i === 0 ? "chien" : `valeur ${i}`))];
  await page.getByLabel(t("en", "learning:import.file")).setInputFiles({
    name: "wide.apkg",
    mimeType: "application/octet-stream",
    buffer: packageOf(noteTypeDeck(fields, notes)),
  });
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await expect(page.getByRole("alert")).toHaveText(
    t("en", "learning:import.packageErrors.tooManyFields", { maxAnkiFields: "50" }),
  );
  await expect(page).not.toHaveURL(/draft=/);
  await open(page, "/account/explore/member", javaScriptEnabled);
  await expect(page.locator("main")).not.toContainText("chien");
});
