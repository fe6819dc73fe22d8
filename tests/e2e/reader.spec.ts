import type { Locator, Page } from "@playwright/test";
import { expect, learnerTest, LOCALES, localePath, signInFresh, t, test, waitForHydration } from "./support";
import { forwardedFor } from "./mail";

// Sign-ins from an address of this file's own: the sign-in limit per address (20 an hour) is not shared with other files.
test.use({ extraHTTPHeaders: forwardedFor() });

/** A word no dictionary has, so no other test's terms or ignored words touch it. */
const inventedWord = () =>
  "zq" + Array.from({ length: 6 }, () => "abcdefghijklmnopqrstuvwxyz"[Math.floor(Math.random() * 26)]).join("");

async function addText(page: Page, javaScriptEnabled: boolean, title: string, body: string) {
  await page.goto("/account/texts/new");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill(title);
  await page.getByLabel(t("en", "reading:form.body"), { exact: true }).fill(body);
  await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
  await expect(page.locator("h1")).toHaveText(title);
  if (javaScriptEnabled) await waitForHydration(page);
}

const wordLink = (page: Page, word: string) => page.locator("a.word", { hasText: new RegExp(`^${word}$`) }).first();
const background = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el).backgroundColor);
const panel = (page: Page) => page.locator(".word-panel");
/** How a word renders: its underline, tint and colour as the browser computed them, and the text's own colour. */
const lookOf = (locator: Locator) =>
  locator.evaluate((el) => {
    const style = getComputedStyle(el);
    return {
      line: style.textDecorationLine,
      style: style.textDecorationStyle,
      background: style.backgroundColor,
      plainColour: style.color === getComputedStyle(el.closest(".reader-text")!).color,
    };
  });
const TRANSPARENT = "rgba(0, 0, 0, 0)";

learnerTest(
  "opens a text, adds an unknown word as a term from the panel, and the word changes stage colour",
  async ({ page, javaScriptEnabled }) => {
    const word = inventedWord();
    await addText(
      page,
      javaScriptEnabled,
      `Story ${word}`,
      `My friend ${word} came home late. Then ${word} was tired.`,
    );
    const link = wordLink(page, word);
    await expect(link).toHaveClass(/\bw-new\b/);
    const newColour = await background(link);
    // A new word has one mark: its tint, no underline (ADR 106).
    expect(newColour).not.toBe(TRANSPARENT);
    expect((await lookOf(link)).line).toBe("none");
    // With JavaScript the panel opens in place: the document is not reloaded.
    await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
    await link.click();
    await expect(panel(page).getByRole("heading", { level: 2 })).toContainText(word);
    await expect(page.getByLabel(t("en", "learning:term.text"), { exact: true })).toHaveValue(word);
    await expect(page.getByLabel(t("en", "learning:term.exampleSentence"))).toHaveValue(
      `My friend ${word} came home late.`,
    );
    // The sentence is quoted in the interface language's marks (the German page's „…“ in the glossary test).
    await expect(panel(page).locator(".word-panel-sentence")).toHaveText(`“My friend ${word} came home late.”`);
    expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker === true)).toBe(
      javaScriptEnabled,
    );
    // The meaning alone adds the word; the part of speech and the example wait behind "More".
    await expect(page.getByLabel(t("en", "learning:term.partOfSpeech"))).toBeHidden();
    await page.getByLabel(t("en", "learning:term.meaning"), { exact: true }).fill("a friend's name");
    await panel(page)
      .getByRole("button", { name: t("en", "reading:panel.addTerm") })
      .click();
    await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.created.title"));
    await expect(link).toHaveClass(/\bw-tolearn\b/);
    await expect(wordLink(page, word).locator("xpath=..").locator("a.word").first()).toBeVisible();
    expect(await background(link)).not.toBe(newColour);
    // A term being learned keeps its tint and its stage's underline style, the cue besides colour.
    expect(await lookOf(link)).toMatchObject({ line: "underline", style: "solid" });
    expect((await lookOf(link)).background).not.toBe(TRANSPARENT);
    // Without JavaScript the page came back to the word: its anchor is in the address.
    if (!javaScriptEnabled) expect(new URL(page.url()).hash).toMatch(/^#w-\d+$/);
    await panel(page)
      .getByRole("button", { name: `4 · ${t("en", "learning:stages.learned")}` })
      .click();
    await expect(link).toHaveClass(/\bw-learned\b/);
    // A learned term reads as plain text, like a known word: no tint, no underline, the text's colour.
    expect(await lookOf(link)).toEqual({ line: "none", style: "solid", background: TRANSPARENT, plainColour: true });
  },
);

learnerTest("marks a word as known so it is no longer highlighted", async ({ page, javaScriptEnabled }) => {
  const word = inventedWord();
  await addText(page, javaScriptEnabled, `Known ${word}`, `Say ${word} twice: ${word}.`);
  await wordLink(page, word).click();
  await panel(page)
    .getByRole("button", { name: t("en", "reading:panel.ignore") })
    .click();
  await expect(page.getByRole("status")).toContainText(t("en", "reading:toasts.ignored.title"));
  for (const link of await page.locator("a.word", { hasText: new RegExp(`^${word}$`) }).all()) {
    await expect(link).toHaveClass(/\bw-ignored\b/);
    // A known word is plain text: no tint, no underline, the text's colour (ADR 106).
    expect(await lookOf(link)).toEqual({ line: "none", style: "solid", background: TRANSPARENT, plainColour: true });
  }
  // The legend says so, and its own known and learned samples are plain too.
  await expect(page.locator(".reader-legend")).toContainText(t("en", "reading:legendPlain"));
  for (const stage of ["learned", "ignored"])
    expect(
      await page.locator(`#legend-${stage}`).evaluate((el) => {
        const style = getComputedStyle(el);
        return [style.textDecorationLine, style.backgroundColor];
      }),
    ).toEqual(["none", TRANSPARENT]);
  await expect(page.locator(".text-stats")).toContainText("2 known (50%)");
});

learnerTest(
  "moves between words with the arrow keys, opens with Enter, sets a stage with 1–4, closes with Escape",
  async ({ page, javaScriptEnabled }) => {
    learnerTest.skip(!javaScriptEnabled, "keyboard shortcuts need JavaScript; without it every word is a plain link");
    const [first, second] = [inventedWord(), inventedWord()];
    await addText(page, true, `Keys ${first}`, `${first} ${second}.`);
    await wordLink(page, first).focus();
    await page.keyboard.press("ArrowRight");
    await expect(wordLink(page, second)).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(wordLink(page, first)).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(panel(page).getByRole("heading", { level: 2 })).toContainText(first);
    // The focus moved into the panel, to the new word's meaning.
    await expect(page.getByLabel(t("en", "learning:term.meaning"), { exact: true })).toBeFocused();
    await panel(page)
      .getByRole("button", { name: t("en", "reading:panel.addTerm") })
      .click();
    await expect(wordLink(page, first)).toHaveClass(/\bw-tolearn\b/);
    await wordLink(page, first).focus();
    await page.keyboard.press("2");
    await expect(wordLink(page, first)).toHaveClass(/\bw-inprogress\b/);
    await wordLink(page, first).focus();
    await page.keyboard.press("Escape");
    await expect(panel(page)).toHaveCount(0);
    await expect(wordLink(page, first)).toBeFocused();
  },
);

learnerTest(
  "the word panel sits right under the header at 1280 px and is a bottom sheet on a phone",
  async ({ page, javaScriptEnabled }) => {
    const word = inventedWord();
    await addText(page, javaScriptEnabled, `Panel ${word}`, `Near ${word} the river.`);
    const text = page.url();
    for (const [width, height] of [
      [1280, 800],
      [360, 740],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(text);
      if (javaScriptEnabled) await waitForHydration(page);
      await wordLink(page, word).click();
      await expect(panel(page).getByRole("heading", { level: 2 })).toContainText(word);
      const box = (await panel(page).boundingBox())!;
      const header = (await page.locator(".site-header").boundingBox())!;
      const below = box.y - (header.y + header.height);
      if (width === 1280) {
        // Close under the header, clear of it, and wholly inside the window.
        expect(below).toBeGreaterThanOrEqual(0);
        expect(below).toBeLessThanOrEqual(24);
        expect(box.y + box.height).toBeLessThanOrEqual(height);
        // Beside the text, not over it.
        const words = (await page.locator(".reader-text").boundingBox())!;
        expect(words.x + words.width).toBeLessThanOrEqual(box.x);
      } else {
        expect(box.x).toBe(0);
        expect(box.width).toBe(width);
        expect(Math.round(box.y + box.height)).toBe(height);
        expect(box.height).toBeLessThanOrEqual(height / 2 + 1);
      }
    }
  },
);

learnerTest(
  "uploads a .txt file and refuses another kind of file with a clear message",
  async ({ page, javaScriptEnabled, consoleGuard }) => {
    // The refusal is a 415, which the browser reports for the form's request.
    consoleGuard.allow(/status of 415/);
    const word = inventedWord();
    await page.goto("/account/texts/new");
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill(`Upload ${word}`);
    await page.getByLabel(t("en", "reading:form.file")).setInputFiles({
      name: "notes.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.7"),
    });
    await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
    await expect(page.locator("#file-error")).toHaveText(t("en", "reading:errors.fileType"));
    await page.getByLabel(t("en", "reading:form.file")).setInputFiles({
      name: "story.txt",
      mimeType: "text/plain",
      buffer: Buffer.from(`Über ${word}.`, "utf8"),
    });
    await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
    await expect(page.locator("h1")).toHaveText(`Upload ${word}`);
    await expect(wordLink(page, "Über")).toHaveClass(/\bw-new\b/);
  },
);

test("shows signed-out visitors the shipped sample texts as a demo of the reader", async ({ page }) => {
  await page.goto("/texts");
  await page.getByRole("link", { name: "My street" }).click();
  await expect(page.locator("h1")).toHaveText("My street");
  await expect(page.locator(".reader-text .word").first()).toHaveClass(/\bw-new\b/);
  await expect(page.getByRole("button", { name: t("en", "reading:samples.read") })).toBeVisible();
});

test("shows a signed-in learner a sample text in their own stages, adds it to their texts once and opens their copy", async ({
  page,
  javaScriptEnabled,
}) => {
  await signInFresh(page, javaScriptEnabled, "samples");
  await page.goto("/account/import");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "learning:import.paste")).fill("street,a road in a town\n");
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await page.getByRole("button", { name: "Import 1 term" }).click();
  await expect(page.locator(".toast")).toContainText("1 term added");

  await page.goto("/texts/en-my-street");
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(page.locator(".lead")).toHaveText(t("en", "reading:samples.yours"));
  const words = page.locator(".reader-text .word");
  await expect(words.filter({ hasText: /^street$/ }).first()).toHaveClass(/\bw-tolearn\b/);
  await expect(words.filter({ hasText: /^river$/ }).first()).toHaveClass(/\bw-new\b/);
  // The statistics count the learner's words: every word but “street” is unknown.
  const unknown = await page.locator(".reader-text .word.w-new").count();
  expect(unknown).toBeLessThan(await words.count());
  await expect(page.locator(".text-stats")).toContainText(`${unknown} unknown`);
  await page.getByRole("button", { name: t("en", "reading:samples.add") }).click();
  await expect(page).toHaveURL(/\/account\/texts\/[0-9a-f-]{36}$/);
  await expect(page.locator("h1")).toHaveText("My street");
  const copy = new URL(page.url()).pathname;

  // Back on the sample: the learner's copy opens, and no second copy is made.
  await page.goto("/de/texts/en-my-street");
  await expect(page.locator(".lead")).toHaveText(t("de", "reading:samples.yoursAdded"));
  await expect(page.getByRole("link", { name: t("de", "reading:samples.open") })).toHaveAttribute("href", `/de${copy}`);
  await expect(page.getByRole("button", { name: t("de", "reading:samples.add") })).toHaveCount(0);
  // A form sent again (a page left open from before the copy): the copy opens, none is added.
  const again = await page.request.post("/texts/en-my-street", { form: {}, maxRedirects: 0 });
  expect(again.status()).toBe(302);
  expect(again.headers().location).toBe(copy);
  await page.goto("/account/texts");
  await expect(page.getByRole("link", { name: "My street" })).toHaveCount(1);
});

learnerTest(
  "offers to listen to a word only when the browser has a voice for the text's language",
  async ({ page, javaScriptEnabled }) => {
    const word = inventedWord();
    if (javaScriptEnabled)
      // The browser's voices, as a system with an English voice lists them (headless Chromium lists none).
      await page.addInitScript(() => {
        const voice = { lang: "en-US", name: "Test English", default: true, localService: true, voiceURI: "test" };
        Object.defineProperty(window.speechSynthesis, "getVoices", { value: () => [voice] });
      });
    await addText(page, javaScriptEnabled, `Listen ${word}`, `Hello ${word}.`);
    await wordLink(page, word).click();
    await expect(panel(page)).toBeVisible();
    await expect(panel(page).getByRole("button", { name: t("en", "reading:panel.listenWord") })).toHaveCount(
      javaScriptEnabled ? 1 : 0,
    );
  },
);

test("keeps every stage's text at 4.5:1 contrast in light and dark themes, and marks stages in print", async ({
  page,
}) => {
  await page.goto("/texts/en-my-street");
  const contrasts = async () =>
    page.locator(".reader-legend .word").evaluateAll((badges) => {
      const luminance = (css: string) => {
        const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
          const c = Number(v) / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const paper = getComputedStyle(document.documentElement).backgroundColor;
      return badges.map((badge) => {
        const style = getComputedStyle(badge);
        const back = style.backgroundColor === "rgba(0, 0, 0, 0)" ? paper : style.backgroundColor;
        const [light, dark] = [luminance(style.color), luminance(back)].sort((a, b) => b - a);
        // The cue besides colour: the underline's style (none for plain text) and whether the word is tinted.
        const line = style.textDecorationLine === "none" ? "none" : style.textDecorationStyle;
        const cue = `${line} ${style.backgroundColor === "rgba(0, 0, 0, 0)" ? "plain" : "tinted"}`;
        return { stage: badge.id.replace("legend-", ""), ratio: (light! + 0.05) / (dark! + 0.05), cue };
      });
    });
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const measured = await contrasts();
    expect(measured).toHaveLength(6);
    for (const { stage, ratio } of measured) expect(ratio, `${stage} in ${colorScheme}`).toBeGreaterThanOrEqual(4.5);
    // Not colour alone: each stage left to learn has a cue of its own (ADR 106); learned and known words are plain.
    const cues = Object.fromEntries(measured.map((m) => [m.stage, m.cue]));
    expect(cues).toEqual({
      new: "none tinted",
      tolearn: "solid tinted",
      inprogress: "dashed tinted",
      needsreview: "wavy tinted",
      learned: "none plain",
      ignored: "none plain",
    });
  }
  await page.emulateMedia({ media: "print", colorScheme: "light" });
  const printed = await page
    .locator(".reader-text .word")
    .first()
    .evaluate((el) => {
      const style = getComputedStyle(el);
      return { color: style.color, background: style.backgroundColor, line: style.textDecorationStyle };
    });
  expect(printed).toEqual({ color: "rgb(0, 0, 0)", background: "rgba(0, 0, 0, 0)", line: "dotted" });
});

test("pages the list of texts 20 at a time, with links that work without JavaScript", async ({
  page,
  javaScriptEnabled,
}, testInfo) => {
  await signInFresh(page, javaScriptEnabled, "texts-pages");
  for (let i = 1; i <= 21; i++) {
    const form = new FormData();
    form.set("title", `Page text ${String(i).padStart(2, "0")}`);
    form.set("body", i === 21 ? "The cat sat on the mat." : `Text number ${"word ".repeat(i)}ends here.`);
    const response = await page.request.post("/account/texts/new", { multipart: form, maxRedirects: 0 });
    expect(response.status()).toBe(302);
  }
  await page.goto("/account/texts");
  if (javaScriptEnabled) await waitForHydration(page);
  const rows = page.locator("table tbody tr");
  await expect(rows).toHaveCount(20);
  await expect(page.getByText(t("en", "reading:page", { page: 1, pages: 2 }))).toBeVisible();
  if (testInfo.project.name === "js-off")
    for (const [width, scheme] of [
      [360, "light"],
      [1280, "dark"],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: testInfo.outputPath(`texts-${width}-${scheme}.png`), fullPage: true });
    }
  await page.getByRole("link", { name: t("en", "reading:next") }).click();
  await expect(page).toHaveURL(/\/account\/texts\?page=2$/);
  await expect(rows).toHaveCount(1);
  await expect(page.getByRole("link", { name: t("en", "reading:previous") })).toBeVisible();
});

for (const width of [1280, 360])
  learnerTest(
    `the word panel never moves the text at ${width} px; with JavaScript the focus goes in and back`,
    async ({ page, javaScriptEnabled }) => {
      await page.setViewportSize({ width, height: 800 });
      const [first, last] = [inventedWord(), inventedWord()];
      const body = `${first} starts here. ${"Some words follow the first one in this long line of text. ".repeat(6)}\nThe ${last} ends it.`;
      await addText(page, javaScriptEnabled, `Still ${first}`, body);
      // Without JavaScript the text's message sits in the flow above it on the page the save led to (decision 129);
      // the page read again has none, as the pages a word opens.
      if (!javaScriptEnabled) await page.reload();
      const after = wordLink(page, last);
      const before = await after.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return { x: box.x, y: box.y + window.scrollY };
      });
      await wordLink(page, first).click();
      await expect(panel(page)).toBeVisible();
      const moved = await after.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return { x: box.x, y: box.y + window.scrollY };
      });
      expect(moved).toEqual(before);
      // Beside the text from 1024 px, a sheet at the bottom on a phone.
      const sheet = await panel(page).evaluate((el) => {
        const box = el.getBoundingClientRect();
        return { left: box.left, bottom: box.bottom, position: getComputedStyle(el).position };
      });
      expect(sheet.position).toBe("fixed");
      if (width >= 1024)
        expect(sheet.left).toBeGreaterThan(
          await page.locator(".reader-text").evaluate((el) => el.getBoundingClientRect().right),
        );
      else expect(sheet.bottom).toBe(800);
      if (!javaScriptEnabled) return;
      await expect(page.getByLabel(t("en", "learning:term.meaning"), { exact: true })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(panel(page)).toHaveCount(0);
      await expect(wordLink(page, first)).toBeFocused();
    },
  );

learnerTest("marks the rest of a page as known and undoes it", async ({ page, javaScriptEnabled }) => {
  const [first, second] = [inventedWord(), inventedWord()];
  await addText(page, javaScriptEnabled, `Rest ${first}`, `${first} and ${second}.`);
  await page.getByRole("button", { name: t("en", "reading:markKnown.button") }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "reading:toasts.markedKnown.title"));
  for (const word of [first, second]) await expect(wordLink(page, word)).toHaveClass(/\bw-ignored\b/);
  await expect(page.getByRole("button", { name: t("en", "reading:markKnown.button") })).toHaveCount(0);
  await page.getByRole("button", { name: t("en", "reading:markKnown.undo") }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "reading:toasts.unmarkedKnown.title"));
  for (const word of [first, second]) await expect(wordLink(page, word)).toHaveClass(/\bw-new\b/);
});

learnerTest(
  "links a word to a dictionary, Wiktionary by default, a template from Settings after",
  async ({ page, javaScriptEnabled, consoleGuard }) => {
    // The refused template answers 400, which the browser reports as a failed resource.
    consoleGuard.allow(/status of 400 \(Bad Request\) \(http:\/\/[^)]+\/account\/settings(\.data)?\)$/);
    const word = inventedWord();
    await addText(page, javaScriptEnabled, `Look up ${word}`, `Find ${word} here.`);
    await wordLink(page, word).click();
    const link = panel(page).getByRole("link", { name: t("en", "reading:panel.dictionary") });
    await expect(link).toHaveAttribute("href", `https://en.wiktionary.org/wiki/${word}#English`);
    await expect(link).toHaveAttribute("target", "_blank");
    const here = page.url();
    await page.goto("/account/settings");
    if (javaScriptEnabled) await waitForHydration(page);
    const field = page.getByLabel(t("en", "learning:settings.dictionary", { language: "English" }));
    await field.fill("ftp://example.com/{word}");
    await page.getByRole("button", { name: t("en", "learning:settings.saveDictionary") }).click();
    await expect(page.getByText(t("en", "learning:settings.errors.dictionary"))).toBeVisible();
    await field.fill("https://www.merriam-webster.com/dictionary/{word}");
    await page.getByRole("button", { name: t("en", "learning:settings.saveDictionary") }).click();
    await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.dictionarySaved.title"));
    await page.goto(here);
    await expect(panel(page).getByRole("link", { name: t("en", "reading:panel.dictionary") })).toHaveAttribute(
      "href",
      `https://www.merriam-webster.com/dictionary/${word}`,
    );
  },
);

learnerTest(
  "states the size limit of a new text as a number in every language",
  async ({ page, javaScriptEnabled }) => {
    for (const lng of LOCALES) {
      await page.goto(localePath(lng, "/account/texts/new"));
      if (javaScriptEnabled) await waitForHydration(page);
      await expect(page.locator("#body-hint")).toHaveText(t(lng, "reading:form.limit", { bytes: 50_000 }));
      await expect(page.locator("#body-hint")).not.toContainText("NaN");
    }
  },
);
