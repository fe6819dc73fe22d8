import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { openCollection, recursiveViewDeck, sharedDeck, unzip, zip } from "../support/anki-files";
import { forwardedFor } from "./mail";
import { expect, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const signIn = (page: Page, javaScriptEnabled: boolean) => signInFresh(page, javaScriptEnabled, "anki");

/** Goes to a page and, with JavaScript, waits until React has taken it over. */
async function open(page: Page, url: string, javaScriptEnabled: boolean) {
  await page.goto(url);
  if (javaScriptEnabled) await waitForHydration(page);
}

test("uploads a shared Anki deck, previews its fields as columns, imports it and exports a package", async ({
  page,
  javaScriptEnabled,
}) => {
  await signIn(page, javaScriptEnabled);
  await open(page, "/account/import", javaScriptEnabled);
  const deck = zip([
    ["collection.anki2", sharedDeck(11)],
    ["media", Buffer.from("{}")],
  ]);
  await page
    .getByLabel(t("en", "learning:import.file"))
    .setInputFiles({ name: "German_Animals.apkg", mimeType: "application/octet-stream", buffer: deck });
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await expect(page).toHaveURL(/\/account\/import\?draft=/);
  await expect(page.locator(".lead").first()).toHaveText("Anki package (.apkg) · German_Animals.apkg");
  await expect(page.getByLabel("Column 1 (Front)")).toHaveValue("text");
  await expect(page.getByLabel("Column 2 (Back)")).toHaveValue("meaning");
  await expect(page.getByLabel("Column 3 (Audio)")).toHaveValue("ignore");
  const summary = page.locator(".import-summary");
  await expect(summary).toContainText("3 new terms will be added to your English terms.");
  await expect(summary).toContainText("3 reviews from the package are kept in the review history.");
  await expect(page.locator(".import-sample tbody")).toContainText("the dog");
  await expect(page.locator("main")).not.toContainText("[sound:");
  await page.getByRole("button", { name: "Import 3 terms" }).click();
  await expect(page.locator(".toast")).toContainText("3 terms added");
  await expect(page.locator("tbody")).toContainText("der Hund");

  await open(page, "/account/export", javaScriptEnabled);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: t("en", "learning:export.apkg") }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^polyglot-\d{4}-\d{2}-\d{2}\.apkg$/);
  const entries = unzip(readFileSync(await download.path()));
  const { db, close } = openCollection(entries.get("collection.anki2")!);
  try {
    const notes = db.prepare("select flds from notes order by sfld").all();
    expect(notes.map((note) => String(note.flds).split("\x1f")[0])).toEqual(["Katze", "das Haus", "der Hund"]);
    expect(db.prepare("select count(*) as n from revlog").get()!.n).toBe(3);
  } finally {
    close();
  }
});

test("names what an image looks like instead of previewing it", async ({ page, javaScriptEnabled, consoleGuard }) => {
  // The refusal is a 415, which the browser reports on its console.
  consoleGuard.allow(/status of 415 \(Unsupported Media Type\) \(http:\/\/[^)]+\/account\/import(\.data)?\)$/);
  await signIn(page, javaScriptEnabled);
  await open(page, "/account/import", javaScriptEnabled);
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(256, 7)]);
  await page
    .getByLabel(t("en", "learning:import.file"))
    .setInputFiles({ name: "terms.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await expect(page.getByRole("alert")).toContainText(
    "This file is neither a table nor an Anki package; it looks like this: an image.",
  );
  await expect(page).not.toHaveURL(/draft=/);
});

test("refuses a package whose notes are a view, saying so in the page", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  // The refusal is a 422, which the browser reports on its console.
  consoleGuard.allow(/status of 422 \(Unprocessable (Entity|Content)\) \(http:\/\/[^)]+\/account\/import(\.data)?\)$/);
  await signIn(page, javaScriptEnabled);
  await open(page, "/account/import", javaScriptEnabled);
  await page
    .getByLabel(t("en", "learning:import.file"))
    .setInputFiles({ name: "view.apkg", mimeType: "application/octet-stream", buffer: recursiveViewDeck(14_000_000) });
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await expect(page.getByRole("alert")).toContainText(t("en", "learning:import.packageErrors.notAnki"));
  await expect(page).not.toHaveURL(/draft=/);
});
