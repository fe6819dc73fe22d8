/**
 * A deck's sounds (issue 57, ADR 126): imported with a real Anki package built here, played on the term page, the
 * review's answer side (its audio element's URL answers a range request with 206 through the production server) and
 * the reader's word panel, and by the player instead of the voice saying the term.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { noteTypeDeck, zip } from "../support/anki-files";
import { wav } from "../support/sound-files";
import { forwardedFor } from "./mail";
import { chooseStudyLanguage, expect, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const NEKO = wav(4000);

/** A Core-style deck of one note whose word has a sound. */
const deck = () =>
  zip([
    [
      "collection.anki2",
      noteTypeDeck(
        ["Vocabulary-Kanji", "Vocabulary-Kana", "Vocabulary-English", "Vocabulary-Audio"],
        [["猫", "ねこ", "cat", "[sound:neko.wav]"]],
      ),
    ],
    ["media", Buffer.from(JSON.stringify({ "0": "neko.wav" }))],
    ["0", NEKO],
  ]);

async function importDeck(page: Page, javaScriptEnabled: boolean) {
  await chooseStudyLanguage(page, javaScriptEnabled, "ja");
  await page.goto("/account/import");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "learning:import.file")).setInputFiles({
    name: "Japanese_Core.apkg",
    mimeType: "application/octet-stream",
    buffer: deck(),
  });
  await page.getByRole("button", { name: t("en", "learning:import.preview") }).click();
  await expect(page).toHaveURL(/\/account\/import\?draft=/);
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(page.locator(".import-summary")).toContainText("1 sound is kept with its term.");
  await page.getByRole("button", { name: "Import 1 term" }).click();
  await expect(page.locator(".toast")).toContainText("1 term added");
}

/** The audio element's length in seconds once the browser has loaded it (with JavaScript). */
const loadedDuration = (audio: ReturnType<Page["locator"]>) =>
  audio.evaluate(
    (element: HTMLAudioElement) =>
      new Promise<number>((resolve, reject) => {
        element.addEventListener("loadedmetadata", () => resolve(element.duration), { once: true });
        element.addEventListener("error", () => reject(new Error("the sound did not load")), { once: true });
        element.load();
      }),
  );

test("a deck's sound plays on the term page and the answer side, by ranges from a URL cached for a year", async ({
  page,
  javaScriptEnabled,
}) => {
  await signInFresh(page, javaScriptEnabled, "sounds");
  await importDeck(page, javaScriptEnabled);
  await page.goto("/account/explore/member");
  await page.getByRole("link", { name: "猫" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("猫");
  const audio = page.locator("audio");
  await expect(audio).toHaveAttribute("controls", "");
  const src = await audio.getAttribute("src");
  expect(src).toMatch(/^\/account\/sounds\/[0-9a-f]{64}$/);
  const part = await page.request.get(src!, { headers: { Range: "bytes=0-99" } });
  expect(part.status()).toBe(206);
  expect(part.headers()["accept-ranges"]).toBe("bytes");
  expect(part.headers()["content-range"]).toBe(`bytes 0-99/${NEKO.length}`);
  expect(part.headers()["content-type"]).toBe("audio/wav");
  expect(part.headers()["cache-control"]).toBe("private, max-age=31536000, immutable, no-transform");
  expect((await part.body()).equals(NEKO.subarray(0, 100))).toBe(true);
  // The browser loads it by itself and reads it as sound.
  if (javaScriptEnabled) expect(await loadedDuration(audio)).toBeCloseTo(0.5, 1);

  // The review's answer side has the same player, not the front.
  await page.goto("/account/review");
  await expect(page.locator("audio")).toHaveCount(0);
  await page.getByRole("button", { name: t("en", "learning:review.show") }).click();
  await expect(page.locator("audio")).toHaveAttribute("src", src!);
  await expect(page.locator("audio")).not.toHaveAttribute("autoplay", "");
});

test("the reader's word panel plays the term's own sound, labelled, with no accessibility violation", async ({
  page,
  javaScriptEnabled,
}) => {
  // A whole journey: the import, a text, two words, the checks in both themes.
  test.slow();
  await signInFresh(page, javaScriptEnabled, "sounds-panel");
  await importDeck(page, javaScriptEnabled);
  await page.goto("/account/texts/new");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel(t("en", "reading:form.title"), { exact: true }).fill("猫");
  await page.getByLabel(t("en", "reading:form.body"), { exact: true }).fill("猫が好きです。犬も好きです。");
  await page.getByRole("button", { name: t("en", "reading:form.create") }).click();
  await expect(page.locator("h1")).toHaveText("猫");
  if (javaScriptEnabled) await waitForHydration(page);
  const panel = page.locator(".word-panel");
  // A word that is no term has no sound.
  await page.locator("a.word", { hasText: /^犬/ }).first().click();
  await expect(panel.getByRole("heading", { level: 2 })).toContainText("犬");
  await expect(panel.locator("audio")).toHaveCount(0);
  await page.locator("a.word", { hasText: /^猫/ }).first().click();
  await expect(panel.getByRole("heading", { level: 2 })).toContainText("猫");
  const audio = panel.getByLabel(t("en", "learning:sound.label"));
  await expect(audio).toHaveAttribute("controls", "");
  await expect(audio).toHaveAttribute("src", /^\/account\/sounds\/[0-9a-f]{64}$/);
  const sound = await page.request.get((await audio.getAttribute("src"))!);
  expect((await sound.body()).equals(NEKO)).toBe(true);
  if (!javaScriptEnabled) return;
  expect(await loadedDuration(audio)).toBeCloseTo(0.5, 1);
  // axe runs in the page, so with JavaScript only; the panel's HTML is the server's either way.
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const { violations } = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  }
});

test("the player plays the term's sound instead of saying it", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "the player plays with JavaScript");
  await signInFresh(page, true, "sounds-player");
  await importDeck(page, true);
  await page.addInitScript(() => {
    // What the page says and plays, in order.
    const heard: string[] = [];
    Object.assign(window, { heard });
    class Utterance extends EventTarget {
      lang = "";
      voice = null;
      rate = 1;
      onend: ((event: Event) => void) | null = null;
      onerror: ((event: Event) => void) | null = null;
      text: string;
      constructor(text: string) {
        super();
        this.text = text;
      }
    }
    const synthesis = {
      getVoices: () => [{ name: "English", lang: "en-US", default: true, localService: true, voiceURI: "en" }],
      speak(utterance: Utterance) {
        heard.push(`said ${utterance.text}`);
        setTimeout(() => utterance.onend?.(new Event("end")), 0);
      },
      cancel() {},
      addEventListener() {},
      removeEventListener() {},
    };
    Object.defineProperty(window, "speechSynthesis", { value: synthesis, configurable: true });
    Object.defineProperty(window, "SpeechSynthesisUtterance", { value: Utterance, configurable: true });
    // What the page plays is recorded, and ends at once.
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      heard.push(`played ${new URL(this.src).pathname}`);
      setTimeout(() => this.dispatchEvent(new Event("ended")), 0);
      return Promise.resolve();
    };
  });
  await page.goto("/account/explore/member");
  await page.getByRole("link", { name: "猫" }).first().click();
  const src = await page.locator("audio").getAttribute("src");
  await page.goto("/account/player");
  await waitForHydration(page);
  // A one-second pause after the term (three by default), as the player's own test does.
  await page.getByText(t("en", "account:player.settings")).click();
  await page.getByLabel(t("en", "account:player.pauseLength")).selectOption("1");
  await page.getByRole("button", { name: t("en", "account:player.play") }).click();
  const heard = () => page.evaluate(() => [...(window as unknown as { heard: string[] }).heard]);
  // The sound first, then (after the pause) the meaning in the voice: the term itself is never spoken.
  await expect.poll(heard).toEqual([`played ${src}`, "said cat"]);
});
