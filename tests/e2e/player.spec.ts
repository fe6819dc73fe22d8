/**
 * The player (issue 59, ADR 109): the day's review read aloud by the browser's speech synthesis, replaced here by a
 * recorder with voices for two languages (English and German); grades sent once through the offline review's queue;
 * the Media Session; the page without JavaScript.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page, Request } from "@playwright/test";
import { forwardedFor } from "./mail";
import { recordSpeech, spoken } from "./speech-recorder";
import { chooseStudyLanguage, expect, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const TERMS = [
  { text: "Hund", meaning: "dog", sentence: "Der Hund schläft.", translation: "The dog sleeps." },
  { text: "Katze", meaning: "cat", sentence: "Die Katze spielt.", translation: "The cat plays." },
  { text: "Vogel", meaning: "bird", sentence: "Der Vogel singt.", translation: "The bird sings." },
];

async function addGermanTerms(page: Page, javaScriptEnabled: boolean): Promise<void> {
  await chooseStudyLanguage(page, javaScriptEnabled, "de");
  await expect(page.locator(".lead").first()).toContainText("German");
  for (const { text, meaning, sentence, translation } of TERMS) {
    const response = await page.request.post("/account/terms/new", {
      form: { text, meaning, partOfSpeech: "noun", notes: "", sentence, translation },
      headers: { Origin: new URL(page.url()).origin },
      maxRedirects: 0,
    });
    expect(response.status(), text).toBeGreaterThanOrEqual(302);
    expect(response.headers()["location"], text).toMatch(/^\/account\/terms\/[\w-]+$/);
  }
}

type ExportDocument = { terms: { text: string; reviews: unknown[] }[] };
const reviewCounts = async (page: Page) => {
  const document = (await (await page.request.get("/account/export?format=json")).json()) as ExportDocument;
  return Object.fromEntries(document.terms.map((term) => [term.text, term.reviews.length]));
};

async function expectNoAxeViolations(page: Page): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
    expect(violations.map((violation) => violation.id)).toEqual([]);
  }
}

test("reads each card in its languages, grades from the buttons and the headset reach the server once", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the player reads aloud with JavaScript");
  test.slow();
  await signInFresh(page, true, "player");
  await addGermanTerms(page, javaScriptEnabled);
  await page.addInitScript(recordSpeech);
  const syncBodies: string[] = [];
  page.on("request", (request: Request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/account/review/sync")
      syncBodies.push(new URLSearchParams(request.postData() ?? "").get("grades") ?? "");
  });

  await page.goto("/account/player");
  await waitForHydration(page);
  await page.getByText(t("en", "account:player.settings")).click();
  await page.getByLabel(t("en", "account:player.pauseLength")).selectOption("1");
  await page.getByLabel(t("en", "account:player.speed")).selectOption("1.25");
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: t("en", "account:player.play") }).click();
  // Term (German voice), pause, meaning (English voice), example (German voice); then it waits for a grade.
  await expect.poll(() => spoken(page)).toHaveLength(3);
  expect(await spoken(page)).toEqual([
    { text: "Hund", lang: "de-DE", voice: "de-DE", rate: 1.25 },
    { text: "dog", lang: "en-US", voice: "en-US", rate: 1.25 },
    { text: "Der Hund schläft.", lang: "de-DE", voice: "de-DE", rate: 1.25 },
  ]);
  const metadata = () =>
    page.evaluate(() => {
      const shown = navigator.mediaSession.metadata;
      return shown ? { title: shown.title, artist: shown.artist } : null;
    });
  expect(await metadata()).toEqual({ title: "Hund", artist: "dog" });
  expect(
    await page.evaluate(() => Object.keys((window as unknown as { mediaHandlers: object }).mediaHandlers).sort()),
  ).toEqual(["nexttrack", "pause", "play", "previoustrack"]);

  // The lock screen's "next" grades (Good by default) and plays the next card.
  await page.evaluate(() =>
    (window as unknown as { mediaHandlers: Record<string, () => void> }).mediaHandlers["nexttrack"]!(),
  );
  await expect.poll(() => spoken(page)).toHaveLength(6);
  expect((await spoken(page)).slice(3).map((entry) => entry.text)).toEqual(["Katze", "cat", "Die Katze spielt."]);
  expect(await metadata()).toEqual({ title: "Katze", artist: "cat" });

  // "Previous" reads the card again; a button grades it.
  await page.evaluate(() =>
    (window as unknown as { mediaHandlers: Record<string, () => void> }).mediaHandlers["previoustrack"]!(),
  );
  await expect.poll(() => spoken(page)).toHaveLength(9);
  expect((await spoken(page)).slice(6).map((entry) => entry.text)).toEqual(["Katze", "cat", "Die Katze spielt."]);
  await page.getByRole("button", { name: t("en", "learning:review.grades.easy"), exact: true }).click();
  await expect.poll(() => spoken(page)).toHaveLength(12);
  await expect.poll(() => reviewCounts(page)).toEqual({ Hund: 1, Katze: 1, Vogel: 0 });
  await expect(page.locator("main").getByRole("status")).toHaveText(t("en", "account:player.allSent"));

  // Each grade was sent once, and each graded term has one review; the third, listened to without a grade, none.
  const sent = syncBodies.flatMap((body) => (body ? (JSON.parse(body) as { grade: string }[]) : []));
  expect(sent.map((grade) => grade.grade)).toEqual(["good", "easy"]);
});

test("going on without a grade reviews nothing; a grade given offline waits on the device and is sent once back online", async ({
  page,
  context,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "the player reads aloud with JavaScript");
  test.slow();
  // Offline, the browser reports the refused sync.
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED|Failed to fetch/);
  await signInFresh(page, true, "player-offline");
  await addGermanTerms(page, javaScriptEnabled);
  await page.addInitScript(recordSpeech);
  await page.goto("/account/player");
  await waitForHydration(page);
  await page.getByText(t("en", "account:player.settings")).click();
  await page.getByLabel(t("en", "account:player.pauseLength")).selectOption("1");
  await page.getByLabel(t("en", "account:player.goOn")).check();

  await page.getByRole("button", { name: t("en", "account:player.play") }).click();
  // Each card takes its two pauses of a second: the three of them, several seconds.
  await expect(page.getByText(t("en", "account:player.finished"))).toBeVisible({ timeout: 20_000 });
  expect((await spoken(page)).map((entry) => entry.text)).toEqual(
    TERMS.flatMap((term) => [term.text, term.meaning, term.sentence]),
  );
  expect(await reviewCounts(page)).toEqual({ Hund: 0, Katze: 0, Vogel: 0 });

  await page.reload();
  await waitForHydration(page);
  await context.setOffline(true);
  await page.getByRole("button", { name: t("en", "learning:review.grades.hard"), exact: true }).click();
  const status = page.locator("main").getByRole("status");
  await expect(status).toHaveText(t("en", "common:offline.waiting_one", { count: 1 }));
  await context.setOffline(false);
  await expect(status).toHaveText(t("en", "account:player.allSent"));
  expect(await reviewCounts(page)).toEqual({ Hund: 1, Katze: 0, Vogel: 0 });
});

test("without JavaScript the page lists the day's terms and says what needs JavaScript", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(javaScriptEnabled, "the page as it arrives without JavaScript");
  await signInFresh(page, false, "player-nojs");
  await addGermanTerms(page, javaScriptEnabled);
  await page.goto("/account/player");
  await expect(page.locator("main .notice")).toHaveText(t("en", "account:player.needsJavaScript"));
  const items = page.locator(".player-list li");
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText("Hund – dog");
  await expect(items.nth(0)).toContainText("Der Hund schläft. – The dog sleeps.");
});

test("the campaign lists the player and the offline review as delivered, and the plans include them", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto("/crowdfunding-campaign");
  await expect(page.locator("main .campaign-delivered li")).toHaveText([
    t("en", "billing:crowdfunding.delivered.player"),
    t("en", "billing:crowdfunding.delivered.offline"),
  ]);
  await expect(page.locator("main .campaign-goals li")).toHaveText([
    t("en", "billing:crowdfunding.goals.voices"),
    t("en", "billing:crowdfunding.goals.languages"),
  ]);
  await expect(page.getByRole("heading", { name: t("en", "billing:crowdfunding.supportersTitle") })).toBeVisible();
  if (javaScriptEnabled) await expectNoAxeViolations(page);

  await page.goto("/subscription");
  await expect(page.locator("main")).toContainText("The audio player");
});

test("a day longer than one batch: the player fetches the next cards before it reaches the end and goes on", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the player reads aloud with JavaScript");
  test.slow();
  await signInFresh(page, true, "player-batches");
  await chooseStudyLanguage(page, true, "de");
  const origin = new URL(page.url()).origin;
  const settings = await page.request.post("/account/settings", {
    form: { intent: "settings", newPerDay: "30", reviewsPerDay: "200", timeZone: "UTC", modes: "forward" },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(settings.status()).toBe(302);
  const texts = Array.from({ length: 27 }, (_, i) => `Wort${String(i).padStart(2, "0")}`);
  for (const text of texts) {
    const response = await page.request.post("/account/terms/new", {
      form: { text, meaning: text.toLowerCase(), partOfSpeech: "noun", notes: "", sentence: "", translation: "" },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(response.status(), text).toBe(302);
  }
  await page.addInitScript(recordSpeech);
  const batches: string[] = [];
  page.on("request", (request: Request) => {
    if (new URL(request.url()).pathname === "/account/player/cards") batches.push(request.url());
  });
  await page.goto("/account/player");
  await waitForHydration(page);
  const position = page.locator(".player-card .hint");
  await expect(position).toHaveText(t("en", "account:player.position", { at: 1, count: 27 }));
  const good = page.getByRole("button", { name: t("en", "learning:review.grades.good"), exact: true });
  for (let at = 1; at <= 26; at++) {
    await good.click();
    await expect(position).toHaveText(t("en", "account:player.position", { at: at + 1, count: 27 }));
  }
  // Cards 26 and 27 came from the one batch fetched while the first batch's last cards were read.
  await expect(page.locator(".player-card .player-term")).toHaveText("Wort26");
  expect(batches).toHaveLength(1);
  await good.click();
  await expect(page.getByText(t("en", "account:player.finished"))).toBeVisible();
  await expect.poll(async () => Object.values(await reviewCounts(page)).filter((count) => count === 1).length).toBe(27);
});

test("settings changed in quick succession on the player: each applies at once and the last one is what is saved", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the player's own controls need JavaScript");
  await signInFresh(page, true, "player-quick");
  await addGermanTerms(page, javaScriptEnabled);
  await page.addInitScript(recordSpeech);
  await page.goto("/account/player");
  await waitForHydration(page);
  await page.getByText(t("en", "account:player.settings")).click();
  const pause = page.getByLabel(t("en", "account:player.pauseLength"));
  const goOn = page.getByLabel(t("en", "account:player.goOn"));
  const saves: string[] = [];
  page.on("response", (response) => {
    const request = response.request();
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/account/player"))
      saves.push(`${response.status()} ${request.postData() ?? ""}`);
  });
  // Ten changes without waiting: a save never aborts the one on its way (the router would leave that request's
  // rejection unhandled: a page error, which the console guard fails on).
  for (let i = 0; i < 10; i++) {
    await pause.selectOption(i % 2 ? "2" : "5");
    await goOn.setChecked(i % 2 === 0);
  }
  await expect(pause).toHaveValue("2");
  await expect(goOn).not.toBeChecked();
  // Saved: the last answer is to the last change.
  await expect.poll(() => saves.at(-1) ?? "").toMatch(/^200 .*pause=2(&|$)/);
  expect(saves.length).toBeLessThanOrEqual(20);
  await page.reload();
  await waitForHydration(page);
  await page.getByText(t("en", "account:player.settings")).click();
  await expect(page.getByLabel(t("en", "account:player.pauseLength"))).toHaveValue("2");
  await expect(page.getByLabel(t("en", "account:player.goOn"))).not.toBeChecked();
});
