/**
 * The review on a train (issue 27, ADR 065): the service worker, the cards and grades stored on the device, the sync
 * when the server answers again, sign-out clearing the device, the offline page. Offline for real: every request of
 * the browser context, the service worker's included, fails as with no network.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { BrowserContext, Page } from "@playwright/test";
import { forwardedFor } from "./mail";
import { BROWSER_USER_AGENT, expect, openAccountMenu, signInFresh, t, test, waitForHydration } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const CACHE = "polyglot-offline-v1";

type StoredGrade = { key: string; owner: string; termId: string; version: number; grade: string; at: number };

async function addTerms(page: Page, count: number, prefix: string, withExamples = false): Promise<void> {
  for (let i = 0; i < count; i++) {
    const example: Record<string, string> = withExamples
      ? { sentence: `We took the ${prefix}${i} home.`, translation: `example ${i}` }
      : {};
    const response = await page.request.post("/account/terms/new", {
      form: { text: `${prefix}${i}`, meaning: `meaning ${i}`, partOfSpeech: "noun", notes: "", ...example },
      headers: { Origin: new URL(page.url()).origin },
      maxRedirects: 0,
    });
    expect(`${response.status()} ${response.headers()["location"]}`, `term ${i}`).toMatch(
      /^30[23] \/account\/terms\/[\w-]+$/,
    );
  }
}

/**
 * Online, the device module stores the deck, the offline review page and its assets once the page is idle: waits for
 * a deck of `cards` cards (an earlier page may have stored an older one) and the stored pages.
 */
async function waitUntilStored(page: Page, cards: number): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(
          async ({ cache }) => {
            const stored = await (await caches.open(cache)).match("/offline-meta.json");
            // Opened only once the app made it: opening it first would make it without its stores.
            if (!(await indexedDB.databases()).some((db) => db.name === "polyglot-offline")) return -1;
            const deck = await new Promise<{ cards: unknown[] } | undefined>((resolve) => {
              const open = indexedDB.open("polyglot-offline");
              open.onsuccess = () => {
                if (!open.result.objectStoreNames.contains("deck")) return resolve(undefined);
                const request = open.result.transaction("deck").objectStore("deck").get("current");
                request.onsuccess = () => {
                  open.result.close();
                  resolve(request.result as { cards: unknown[] } | undefined);
                };
              };
            });
            return !!stored && navigator.serviceWorker.controller !== null ? (deck?.cards.length ?? -1) : -1;
          },
          { cache: CACHE },
        ),
      { timeout: 20_000 },
    )
    .toBe(cards);
}

async function goOffline(context: BrowserContext): Promise<void> {
  await context.route("**/*", (route) => route.abort("internetdisconnected"));
  await context.setOffline(true);
}

async function goOnline(context: BrowserContext): Promise<void> {
  await context.unrouteAll({ behavior: "ignoreErrors" });
  await context.setOffline(false);
}

const storedGrades = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<StoredGrade[]>((resolve, reject) => {
        const open = indexedDB.open("polyglot-offline");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("grades")) return resolve([]);
          const request = db.transaction("grades").objectStore("grades").getAll();
          request.onsuccess = () => {
            db.close();
            resolve(request.result as StoredGrade[]);
          };
        };
      }),
  );

async function gradeOffline(page: Page, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await page.getByRole("button", { name: t("en", "learning:review.show") }).click();
    await page.getByRole("button", { name: new RegExp(t("en", "learning:review.grades.good")) }).click();
    await expect(page.getByRole("group", { name: t("en", "learning:review.gradeLegend") })).toBeHidden();
  }
}

async function expectNoAxeViolations(page: Page): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
    expect(violations.map((violation) => violation.id)).toEqual([]);
  }
}

type ExportDocument = { terms: { text: string; reviews: { reviewedAt: string }[] }[] };
const exportedReviews = async (page: Page) => {
  const response = await page.request.get("/account/export?format=json");
  expect(response.status()).toBe(200);
  const document = (await response.json()) as ExportDocument;
  return document.terms.flatMap((term) => term.reviews.map((review) => `${term.text}@${review.reviewedAt}`)).sort();
};

test("reviews ten cards offline across a reload, syncs them once with their times, and sign-out clears the device", async ({
  page,
  context,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "the offline review needs JavaScript");
  test.setTimeout(120_000);
  // Offline, the browser reports every refused request.
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED/);
  await signInFresh(page, true, "offline");
  await addTerms(page, 12, "zug");

  await page.goto("/account/review");
  await waitForHydration(page);
  await waitUntilStored(page, 12);

  await goOffline(context);
  // The review's address leads to the stored review, which says it is offline.
  await page.goto("/account/review");
  await expect(page).toHaveURL(/\/account\/review\/offline$/);
  const status = page.locator(".offline-status");
  await expect(status).toContainText(t("en", "offline.reviewOffline"));
  await gradeOffline(page, 5);
  await expect(status).toContainText(t("en", "offline.waiting_other", { count: 5 }));
  await expectNoAxeViolations(page);

  // A reload offline goes on with the next stored card; nothing graded comes back.
  await page.reload();
  await expect(status).toContainText(t("en", "offline.waiting_other", { count: 5 }));
  await gradeOffline(page, 5);
  await expect(status).toContainText(t("en", "offline.waiting_other", { count: 10 }));
  const grades = await storedGrades(page);
  expect(grades).toHaveLength(10);
  expect(new Set(grades.map((grade) => grade.termId)).size).toBe(10);
  // The terms' texts, as the export names them.
  const textOf = new Map(
    await page.evaluate(
      () =>
        new Promise<[string, string][]>((resolve) => {
          const open = indexedDB.open("polyglot-offline");
          open.onsuccess = () => {
            const request = open.result.transaction("deck").objectStore("deck").get("current");
            request.onsuccess = () => {
              const deck = request.result as { cards: { id: string; answer: { text: string } }[] };
              open.result.close();
              resolve(deck.cards.map((card) => [card.id, card.answer.text]));
            };
          };
        }),
    ),
  );

  // Any other page: the translated offline page, not the browser's error.
  await page.goto("/account/statistics");
  await expect(page.locator("h1")).toHaveText(t("en", "offline.title"));
  await expectNoAxeViolations(page);

  await goOnline(context);
  await page.goto("/account/review/offline");
  await expect(status).toContainText(t("en", "offline.allSent"));
  await expect.poll(() => storedGrades(page)).toEqual([]);
  const expected = grades.map((grade) => `${textOf.get(grade.termId)}@${new Date(grade.at).toISOString()}`).sort();
  expect(await exportedReviews(page)).toEqual(expected);

  // The same grades sent again change nothing.
  const again = await page.request.post("/account/review/sync", {
    form: {
      owner: grades[0]!.owner,
      grades: JSON.stringify(grades.map(({ termId, version, grade, at }) => ({ termId, version, grade, at }))),
    },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(await again.json()).toEqual({ outcomes: new Array(10).fill("duplicate"), cards: [] });
  expect(await exportedReviews(page)).toEqual(expected);

  // Sign-out: the device's cards, grades and pages go.
  await page.goto("/account/home");
  await waitForHydration(page);
  await openAccountMenu(page, "en");
  await page
    .locator("header")
    .getByRole("button", { name: t("en", "nav.signOut") })
    .click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name))).toEqual([]);
  expect(await page.evaluate(() => caches.keys())).toEqual([]);
});

test("offline the review looks, keys and speaks as online, and back online its grades go within 2 s, the header following", async ({
  page,
  context,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "the offline review needs JavaScript");
  test.setTimeout(120_000);
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED/);
  await signInFresh(page, true, "offline-keys");
  await addTerms(page, 4, "taste");
  await page.goto("/de/account/review");
  await waitForHydration(page);
  await waitUntilStored(page, 4);
  // The German pages stored (the English ones of the first page may have been stored before).
  await expect
    .poll(
      () =>
        page.evaluate(async (cache) => {
          const meta = await (await caches.open(cache)).match("/offline-meta.json");
          return meta ? ((await meta.json()) as { review: string }).review : null;
        }, CACHE),
      { timeout: 20_000 },
    )
    .toBe("/de/account/review/offline");
  await goOffline(context);
  await page.goto("/de/account/review");
  await expect(page).toHaveURL(/\/de\/account\/review\/offline$/);

  // The focused screen of the online review, in German, parts of speech included.
  await expect(page.locator("header").getByRole("link", { name: t("de", "nav.leaveReview") })).toBeVisible();
  await expect(page.locator("footer")).toHaveCount(0);
  await expect(page.locator("h1")).toHaveClass(/visually-hidden/);
  const card = page.locator(".review-card");
  await expect(card.locator(".eyebrow")).toContainText(t("de", "lists:partsOfSpeech.noun"));
  await expect(page.getByText(t("de", "learning:review.keys"))).toBeVisible();

  // Space reveals, 3 grades Good; Enter reveals, 4 grades Easy: the grades are the ones stored.
  const show = page.getByRole("button", { name: t("de", "learning:review.show") });
  const grades = page.getByRole("group", { name: t("de", "learning:review.gradeLegend") });
  await expect(show).toBeFocused();
  await page.keyboard.press("Space");
  await expect(grades).toBeVisible();
  await expect(grades.getByRole("button")).toHaveText(
    [
      `1 · ${t("de", "learning:review.grades.again")}`,
      `2 · ${t("de", "learning:review.grades.hard")}`,
      `3 · ${t("de", "learning:review.grades.good")}`,
      `4 · ${t("de", "learning:review.grades.easy")}`,
    ].map((label) => new RegExp(`^${label}`)),
  );
  await page.keyboard.press("3");
  await expect(grades).toBeHidden();
  await expect(show).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(grades).toBeVisible();
  await page.keyboard.press("4");
  await expect(grades).toBeHidden();
  expect((await storedGrades(page)).map((grade) => grade.grade).sort()).toEqual(["easy", "good"]);
  const status = page.locator(".offline-status");
  await expect(status).toContainText(t("de", "offline.reviewOffline"));
  await expectNoAxeViolations(page);

  // Back online, where the server answers only from the second try: the grades go within 2 s, not at the next
  // long turn.
  await context.unrouteAll({ behavior: "ignoreErrors" });
  let tries = 0;
  await context.route("**/account/review/sync", (route) =>
    tries++ === 0 ? route.abort("internetdisconnected") : route.continue(),
  );
  await context.setOffline(false);
  await expect(status).toContainText(t("de", "offline.allSent"), { timeout: 2_000 });
  expect(tries).toBeGreaterThanOrEqual(2);
  expect(await storedGrades(page)).toEqual([]);
  await page
    .locator("header")
    .getByRole("link", { name: t("de", "nav.leaveReview") })
    .click();
  await expect(page).toHaveURL(/\/de\/account\/home$/);
  await expect(page.locator("header .review-shortcut .due-count")).toHaveText("2");
});

test("without JavaScript nothing is registered and the review works as before", async ({
  page,
  context,
  javaScriptEnabled,
}) => {
  test.skip(javaScriptEnabled, "the page without JavaScript");
  await signInFresh(page, false, "offline-nojs");
  await addTerms(page, 1, "rail");
  await page.goto("/account/review");
  await expect(page.locator("h1")).toHaveText(t("en", "learning:review.title"));
  await page.getByRole("button", { name: t("en", "learning:review.show") }).click();
  await expect(page).toHaveURL(/reveal=1/);
  expect(context.serviceWorkers()).toEqual([]);
});

test("all four review modes work offline, typed answers checked on the device", async ({
  page,
  context,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "the offline review needs JavaScript");
  test.setTimeout(120_000);
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED/);
  await signInFresh(page, true, "offline-modes");
  await page.goto("/account/settings");
  await waitForHydration(page);
  for (const box of await page.locator('input[name="modes"]').all()) await box.setChecked(true);
  await page.getByLabel(t("en", "learning:settings.newPerDay")).fill("60");
  await page.getByLabel(t("en", "learning:settings.timeZone")).selectOption("UTC");
  await page.getByRole("button", { name: t("en", "learning:settings.save") }).click();
  await expect(page.getByRole("status")).toContainText(t("en", "learning:toasts.settingsSaved.title"));
  await addTerms(page, 40, "wagon", true);
  await page.goto("/account/review");
  await waitForHydration(page);
  await waitUntilStored(page, 40);

  await goOffline(context);
  await page.goto("/account/review");
  await expect(page).toHaveURL(/\/account\/review\/offline$/);
  const card = page.locator(".review-card");
  const seen = new Set<string>();
  for (let i = 0; i < 40 && seen.size < 4; i++) {
    const mode = (await card.locator(".review-mode").textContent())!;
    const name = (["forward", "reverse", "typed", "cloze"] as const).find(
      (candidate) => t("en", `learning:review.modes.${candidate}`) === mode,
    )!;
    if (name === "typed") {
      // The meaning "meaning N" asks for "wagonN"; capitals differ only: the device's check says "close", as the server's.
      const meaning = (await card.locator(".review-meaning").textContent())!;
      const answer = `WAGON${meaning.replace("meaning ", "")}`;
      await page.getByLabel(t("en", "learning:review.typeTheTerm")).fill(answer);
      await page.getByRole("button", { name: t("en", "learning:review.check") }).click();
      await expect(card.locator(".answer-check")).toHaveText(t("en", "learning:review.checks.close", { answer }));
      await expect(card).toContainText(
        t("en", "learning:review.suggested", { grade: t("en", "learning:review.grades.hard") }),
      );
      if (!seen.has("typed")) await expectNoAxeViolations(page);
    } else {
      await page.getByRole("button", { name: t("en", "learning:review.show") }).click();
      if (name === "cloze") await expect(card.locator(".cloze-gap")).toHaveText(/^wagon\d+$/);
      else await expect(card.locator(".review-answer")).toContainText(name === "forward" ? "meaning" : "wagon");
    }
    seen.add(name);
    await page.getByRole("button", { name: new RegExp(t("en", "learning:review.grades.good")) }).click();
    await expect(page.getByRole("group", { name: t("en", "learning:review.gradeLegend") })).toBeHidden();
  }
  expect([...seen].sort()).toEqual(["cloze", "forward", "reverse", "typed"]);
});

test("signing out offline says how many grades wait and keeps them until the learner discards them", async ({
  page,
  context,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "the offline review needs JavaScript");
  test.setTimeout(90_000);
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED/);
  await signInFresh(page, true, "offline-signout");
  await addTerms(page, 3, "tram");
  await page.goto("/account/review");
  await waitForHydration(page);
  await waitUntilStored(page, 3);

  await goOffline(context);
  await page.goto("/account/review");
  await gradeOffline(page, 2);
  await expect(page.locator(".offline-status")).toContainText(t("en", "offline.waiting_other", { count: 2 }));
  await expect(page.getByRole("button", { name: t("en", "learning:review.show") })).toBeFocused();

  // The focused review's header offers the sign-out offline (no page that has it can be reached).
  await page
    .locator("header")
    .getByRole("button", { name: t("en", "nav.signOut") })
    .click();
  const dialog = page.getByRole("dialog", { name: t("en", "offline.signOutTitle") });
  await expect(dialog).toContainText(t("en", "offline.signOutWaiting_other", { count: 2 }));
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: t("en", "offline.keep") }).click();
  await expect(dialog).toBeHidden();
  expect(await storedGrades(page)).toHaveLength(2);

  await page
    .locator("header")
    .getByRole("button", { name: t("en", "nav.signOut") })
    .click();
  await dialog.getByRole("button", { name: t("en", "offline.discard_other") }).click();
  // The sign-out itself cannot reach the server: the offline page says so; the grades and cards are gone.
  await expect(page.locator("h1")).toHaveText(t("en", "offline.title"));
  expect(await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name))).toEqual([]);
  const kept = await page.evaluate(async () =>
    (await Promise.all((await caches.keys()).map(async (name) => (await caches.open(name)).keys())))
      .flat()
      .map((request) => new URL(request.url).pathname)
      .sort(),
  );
  expect(kept.filter((path) => !/^\/(favicon|apple-touch-icon|site\.webmanifest)/.test(path))).toEqual([
    "/offline",
    "/offline-meta.json",
  ]);
});

test("a grade the network drops in the middle of the review is kept, and the review goes on from the stored cards", async ({
  page,
  context,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "the offline review needs JavaScript");
  test.setTimeout(90_000);
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED/);
  await signInFresh(page, true, "offline-drop");
  await addTerms(page, 3, "metro");
  await page.goto("/account/review");
  await waitForHydration(page);
  await waitUntilStored(page, 3);
  // With JavaScript the review shows the stored cards (decision 117): the network dropping changes nothing on screen.
  await expect(page.locator('[data-review="device"]')).toBeVisible();
  await page.getByRole("button", { name: t("en", "learning:review.show") }).click();

  await goOffline(context);
  // With JavaScript the grade buttons carry their shortcut: "3 · Good".
  await page.getByRole("button", { name: new RegExp(`\\b${t("en", "learning:review.grades.good")}\\b`) }).click();
  const status = page.locator(".offline-status");
  await expect(status).toContainText(t("en", "offline.waiting_one", { count: 1 }));
  await expect(page.locator(".review-progress > .hint")).toHaveText(
    t("en", "learning:review.remaining_other", { count: 2 }),
  );
  await gradeOffline(page, 2);
  await expect(status).toContainText(t("en", "offline.waiting_other", { count: 3 }));
  await expect(page).toHaveURL(/\/account\/review$/);
});

test("switching to basic HTML unregisters the worker, so it never controls a basic page", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the worker is registered with JavaScript only");
  test.setTimeout(90_000);
  await signInFresh(page, true, "offline-basic");
  await addTerms(page, 1, "bus");
  // The focused review has no footer: the switch is on any other page.
  await page.goto("/account/home");
  await waitForHydration(page);
  await waitUntilStored(page, 1);
  await page.getByRole("button", { name: t("en", "footer.basicMode") }).click();
  await expect(page.getByRole("button", { name: t("en", "footer.fullMode") })).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  // The grades and cards stay: only the worker goes.
  expect(await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name))).toEqual([
    "polyglot-offline",
  ]);
});

test("a card graded elsewhere while offline keeps the grade given first: the offline one is dropped and the learner told", async ({
  page,
  context,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "the offline review needs JavaScript");
  test.setTimeout(90_000);
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED/);
  await signInFresh(page, true, "offline-elsewhere");
  await addTerms(page, 2, "ferry");
  await page.goto("/account/review");
  await waitForHydration(page);
  await waitUntilStored(page, 2);

  await goOffline(context);
  await page.goto("/account/review");
  await gradeOffline(page, 1);
  const [grade] = await storedGrades(page);
  // Meanwhile another device grades the same card at the same version (the API requests bypass the offline browser).
  const elsewhere = await page.request.post("/account/review", {
    form: { termId: grade!.termId, version: String(grade!.version), grade: "again" },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(elsewhere.status()).toBe(303);

  // Back online on the next visit (the open page would send at once, on the browser's "online" event).
  await page.goto("about:blank");
  await goOnline(context);
  await page.goto("/account/review/offline");
  const status = page.locator(".offline-status");
  await expect(status).toContainText(t("en", "offline.elsewhere_one", { count: 1 }));
  await expectNoAxeViolations(page);
  expect(await storedGrades(page)).toEqual([]);
  const response = await page.request.get("/account/export?format=json");
  const document = (await response.json()) as {
    terms: { text: string; reviews: { rating: number; reviewedAt: string }[] }[];
  };
  // One review, the one given first (Again = 1), not the offline Good.
  expect(document.terms.flatMap((term) => term.reviews.map((review) => review.rating))).toEqual([1]);
});

test("storing the offline copies and syncing leave the toast of the learner's next page waiting", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the device stores its copies with JavaScript only");
  // The device's background fetch of the offline review page names itself a stored copy.
  const stored = page.waitForRequest((request) => new URL(request.url()).pathname === "/account/review/offline");
  await signInFresh(page, javaScriptEnabled, "stored-copy");
  expect((await stored).headers()["x-stored-copy"]).toBe("1");

  // A change that queues a toast for the next page; its redirect not followed, the toast waits in its cookie.
  const saved = await page.request.post("/preferences", {
    form: { intent: "studyLanguage", studyLanguage: "es", redirectTo: "/account/home" },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(saved.status()).toBe(302);
  const title = t("en", "learning:toasts.studyLanguageSaved.title");
  // A stored copy fetched now neither shows the toast nor spends it, and neither do the deck and the sync, which
  // show no page.
  for (const path of ["/offline", "/account/review/offline"]) {
    const copy = await page.request.get(path, { headers: { "X-Stored-Copy": "1" } });
    expect(copy.status()).toBe(200);
    expect(await copy.text()).not.toContain('class="toast toast-');
  }
  expect((await page.request.get("/account/review/deck")).status()).toBe(200);
  const sync = await page.request.post("/account/review/sync", {
    form: { owner: "another learner", grades: "[]" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(sync.status()).toBe(409);
  await page.goto("/account/home");
  await expect(page.getByRole("status")).toContainText(title);
});

test("a grade given offline before a stage change made on another device is dropped, and the sync goes on", async ({
  page,
  context,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "the offline review needs JavaScript");
  test.setTimeout(90_000);
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED/);
  await signInFresh(page, true, "offline-stage");
  await addTerms(page, 1, "tunnel");
  await page.goto("/account/review");
  await waitForHydration(page);
  await waitUntilStored(page, 1);

  await goOffline(context);
  await page.goto("/account/review");
  await gradeOffline(page, 1);
  // The grade has waited on the device for two days…
  const [grade] = await page.evaluate(
    (days) =>
      new Promise<StoredGrade[]>((resolve, reject) => {
        const open = indexedDB.open("polyglot-offline");
        open.onsuccess = () => {
          const transaction = open.result.transaction("grades", "readwrite");
          const store = transaction.objectStore("grades");
          const request = store.getAll();
          request.onsuccess = () => {
            const grades = (request.result as StoredGrade[]).map((stored) => ({ ...stored, at: stored.at - days }));
            for (const stored of grades) store.put(stored);
            transaction.oncomplete = () => {
              open.result.close();
              resolve(grades);
            };
          };
          transaction.onerror = () => reject(transaction.error);
        };
      }),
    2 * 86_400_000,
  );
  // …and meanwhile marked "learned" by hand on another device (the API requests bypass the offline browser).
  const changed = await page.request.post(`/account/terms/${grade!.termId}`, {
    form: { intent: "stage", stage: "learned" },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(changed.status()).toBe(302);

  // Back online on the next visit: the offline tab closed first, so that its "online" event sends nothing.
  const next = await context.newPage();
  await page.close();
  await goOnline(context);
  await next.goto("/account/review/offline");
  await expect(next.locator(".offline-status")).toContainText(t("en", "offline.elsewhere_one", { count: 1 }));
  expect(await storedGrades(next)).toEqual([]);
  const exported = await next.request.get("/account/export?format=json");
  const document = (await exported.json()) as { terms: { stage: string; reviews: unknown[] }[] };
  expect(document.terms.map((term) => [term.stage, term.reviews.length])).toEqual([["learned", 0]]);
});

test("signing out everywhere from another device clears the shared browser's stored review and its waiting grades", async ({
  page,
  browser,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "the offline review needs JavaScript");
  test.setTimeout(120_000);
  consoleGuard.allow(/ERR_INTERNET_DISCONNECTED/);
  await signInFresh(page, true, "offline-everywhere");
  await addTerms(page, 2, "kiosk");
  // A shared computer with the same learner signed in, its device holding today's cards and a grade not sent yet.
  const shared = await browser.newContext({
    userAgent: BROWSER_USER_AGENT,
    extraHTTPHeaders: forwardedFor(),
    storageState: await page.context().storageState(),
  });
  consoleGuard.watch(shared);
  const offlineTab = await shared.newPage();
  await offlineTab.goto("/account/review");
  await waitForHydration(offlineTab);
  await waitUntilStored(offlineTab, 2);
  await goOffline(shared);
  await offlineTab.goto("/account/review");
  await gradeOffline(offlineTab, 1);
  expect(await storedGrades(offlineTab)).toHaveLength(1);
  // The tab closed offline: nothing sends the grade when the network comes back.
  const tab = await shared.newPage();
  await offlineTab.close();
  await goOnline(shared);

  // The learner's own device: "sign out everywhere", whose confirmation says the waiting grades are discarded.
  expect(await exportedReviews(page)).toEqual([]);
  await page.goto("/account/profile");
  await waitForHydration(page);
  await page.getByRole("button", { name: t("en", "pages:logout.everywhere") }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("status")).toContainText(t("en", "toast.signedOutEverywhere.description"));

  // The shared browser's next page: signed out, and nothing of the learner's review is left on it.
  await tab.goto("/account/review");
  await expect(tab).toHaveURL(/\/form$/);
  await expect
    .poll(() =>
      tab.evaluate(async () => ({
        databases: (await indexedDB.databases()).map((db) => db.name),
        caches: await caches.keys(),
        workers: (await navigator.serviceWorker.getRegistrations()).length,
      })),
    )
    .toEqual({ databases: [], caches: [], workers: 0 });
  // Offline, the review's address no longer opens the stored cards.
  await goOffline(shared);
  await expect(tab.goto("/account/review")).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
  await shared.close();
});

test("a page with no signed-in learner clears a device left holding a learner's review, whatever the server said", async ({
  page,
  context,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the offline review needs JavaScript");
  test.setTimeout(90_000);
  await signInFresh(page, true, "offline-cookie-gone");
  await addTerms(page, 1, "bench");
  await page.goto("/account/review");
  await waitForHydration(page);
  await waitUntilStored(page, 1);
  // The session cookie gone without a word from the server (the browser dropped it, or it expired).
  await context.clearCookies();
  await page.goto("/explore");
  await waitForHydration(page);
  await expect
    .poll(() =>
      page.evaluate(async () => ({
        databases: (await indexedDB.databases()).map((db) => db.name),
        caches: await caches.keys(),
        workers: (await navigator.serviceWorker.getRegistrations()).length,
      })),
    )
    .toEqual({ databases: [], caches: [], workers: 0 });
});
