import type { Page } from "@playwright/test";
import { noteTypeDeck, packageOf } from "../support/anki-files";
import { forwardedFor } from "./mail";
import { expect, signInFresh, t, test, waitForHydration } from "./support";

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
    mapping: ["text", "ignore", "meaning"],
    first: { text: "先週", meaning: "last week" },
  },
  {
    name: "Chinese_HSK1.apkg",
    fields: ["Hanzi", "Pinyin", "English"],
    notes: [
      ["你好", "nǐ hǎo", "hello"],
      ["谢谢", "xiè xie", "thank you"],
    ],
    mapping: ["text", "ignore", "meaning"],
    first: { text: "你好", meaning: "hello" },
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
    await expect(first.locator("td").nth(2)).toHaveText(deck.first.meaning);
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
