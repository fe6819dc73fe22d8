/**
 * The offline review's server side under attack (issue 51): a grade that the scheduler cannot apply never jams a
 * learner's sync, and a browser whose session was ended elsewhere is told to clear what the learner's device stored.
 * Through the production build on PGlite, learners signed in through the real flow (SMTP sink). Needs `npm run build`.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInBrowser, startApp } from "../support/app";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

const DAY_MS = 86_400_000;
const CLEAR_DEVICE = '"storage", "cache"';

let app: App;
let mail: Awaited<ReturnType<typeof startMailSink>>;

beforeAll(async () => {
  mail = await startMailSink();
  app = await startApp({ SMTP_URL: mail.url });
});
afterAll(async () => {
  await app?.stop();
  await mail?.close();
});

async function addTerm(browser: Browser, text: string): Promise<string> {
  const response = await browser.request("/account/terms/new", {
    method: "POST",
    form: { text, meaning: `meaning of ${text}`, partOfSpeech: "noun", notes: "", sentence: "", translation: "" },
  });
  expect(response.status).toBe(302);
  return response.headers.get("Location")!.split("/").at(-1)!;
}

/** A second session of the same learner: another sign-in, past the wait between two links to one address. */
async function signInAgain(email: string): Promise<Browser> {
  await app.db.execute(sql`delete from rate_limit_events`);
  return signedInBrowser(app, mail, email);
}

async function ownerOf(browser: Browser): Promise<string> {
  const response = await browser.request("/account/review/deck");
  expect(response.status).toBe(200);
  return ((await response.json()) as { owner: string }).owner;
}

type Grade = { termId: string; version: number; grade: string; at: number };
async function sync(browser: Browser, owner: string, grades: Grade[]) {
  const response = await browser.request("/account/review/sync", {
    method: "POST",
    form: { owner, grades: JSON.stringify(grades) },
  });
  const { outcomes } = (await response.json()) as { outcomes?: string[] };
  return { status: response.status, body: { outcomes } };
}

const reviewCount = async (termId: string) =>
  (await app.db.execute(sql`select count(*)::int as n from review_logs where term_id = ${termId}`)).rows[0]!.n;

describe("a grade the scheduler cannot apply", () => {
  it("given offline before a stage change made on another device is answered elsewhere; the batch goes on", async () => {
    const learner = await signedInBrowser(app, mail, "train@example.com");
    const owner = await ownerOf(learner);
    const changed = await addTerm(learner, "Fahrkarte");
    const other = await addTerm(learner, "Bahnsteig");
    const now = Date.now();
    // Offline, two days ago: both cards graded at version 0. Meanwhile another device marks one "learned" by hand,
    // which keeps its version (a stage change is not a review) and starts its schedule now.
    const grades = [
      { termId: changed, version: 0, grade: "good", at: now - 2 * DAY_MS },
      { termId: other, version: 0, grade: "good", at: now - DAY_MS },
    ];
    const stage = await learner.request(`/account/terms/${changed}`, {
      method: "POST",
      form: { intent: "stage", stage: "learned" },
    });
    expect(stage.status).toBe(302);

    expect(await sync(learner, owner, grades)).toEqual({
      status: 200,
      body: { outcomes: ["elsewhere", "applied"] },
    });
    expect(await reviewCount(changed)).toBe(0);
    expect(await reviewCount(other)).toBe(1);
    // The device resending the same batch changes nothing and is answered the same way.
    expect(await sync(learner, owner, grades)).toEqual({
      status: 200,
      body: { outcomes: ["elsewhere", "duplicate"] },
    });
    // A grade given after the stage change is applied.
    expect(await sync(learner, owner, [{ termId: changed, version: 0, grade: "good", at: now + 1_000 }])).toEqual({
      status: 200,
      body: { outcomes: ["applied"] },
    });
  });

  it("failing in the scheduler is that grade's own outcome, never a failed batch", async () => {
    const learner = await signedInBrowser(app, mail, "ferry@example.com");
    const owner = await ownerOf(learner);
    const broken = await addTerm(learner, "Fähre");
    const other = await addTerm(learner, "Hafen");
    await learner.request(`/account/terms/${broken}`, { method: "POST", form: { intent: "stage", stage: "learned" } });
    // A memory state FSRS refuses (a difficulty below its range), as a damaged row could hold.
    await app.db.execute(sql`update terms set difficulty = 0.5 where id = ${broken}`);
    const now = Date.now();
    const grades = [
      { termId: broken, version: 0, grade: "good", at: now },
      { termId: other, version: 0, grade: "easy", at: now },
    ];
    expect(await sync(learner, owner, grades)).toEqual({ status: 200, body: { outcomes: ["failed", "applied"] } });
    expect(await reviewCount(broken)).toBe(0);
    expect(await reviewCount(other)).toBe(1);
  });
});

describe("a browser whose session was ended elsewhere", () => {
  it("is told to clear the device's storage and cache (never its cookies), once, with its dead cookie cleared", async () => {
    const shared = await signedInBrowser(app, mail, "shared@example.com");
    const mine = await signInAgain("shared@example.com");
    // Signed in and anonymous requests are never told to clear anything.
    expect((await shared.request("/account/home")).headers.get("Clear-Site-Data")).toBeNull();
    expect((await app.browser().request("/")).headers.get("Clear-Site-Data")).toBeNull();
    expect((await app.browser().request("/account/home")).headers.get("Clear-Site-Data")).toBeNull();

    const everywhere = await mine.request("/logout", { method: "POST", form: { intent: "everywhere" } });
    expect(everywhere.status).toBe(302);
    expect(everywhere.headers.get("Clear-Site-Data")).toBe(CLEAR_DEVICE);

    // The shared browser's next request, whatever it asks for: the device's sync, a page.
    const synced = await shared.request("/account/review/sync", { method: "POST", form: { owner: "x", grades: "[]" } });
    expect(synced.status).toBe(302);
    expect(synced.headers.get("Clear-Site-Data")).toBe(CLEAR_DEVICE);
    expect(shared.jar.has("__session")).toBe(false);
    const next = await shared.request("/");
    expect(next.status).toBe(200);
    expect(next.headers.get("Clear-Site-Data")).toBeNull();
  });

  it("an unknown session's cookie is cleared the same way, on any page, and a sign-out clears the device too", async () => {
    const learner = await signedInBrowser(app, mail, "unknown@example.com");
    const cookie = learner.jar.get("__session")!;
    await app.db.execute(sql`delete from sessions`);
    for (const path of ["/", "/account/review", "/texts"]) {
      const visitor = app.browser();
      visitor.jar.set("__session", cookie);
      const response = await visitor.request(path);
      expect(response.status, path).toBeLessThan(500);
      expect(response.headers.get("Clear-Site-Data"), path).toBe(CLEAR_DEVICE);
      expect(visitor.jar.has("__session"), path).toBe(false);
    }
    const again = await signInAgain("unknown@example.com");
    const out = await again.request("/logout", { method: "POST", form: {} });
    expect(out.status).toBe(302);
    expect(out.headers.get("Clear-Site-Data")).toBe(CLEAR_DEVICE);
  });
});

describe("cards that come back (ADR 117)", () => {
  it("the answer to an applied grade carries the card when it falls due again before the day ends", async () => {
    const learner = await signedInBrowser(app, mail, "loop@example.com");
    const owner = await ownerOf(learner);
    const termId = await addTerm(learner, "Schleife");
    const send = async (grades: Grade[]) => {
      const response = await learner.request("/account/review/sync", {
        method: "POST",
        form: { owner, grades: JSON.stringify(grades) },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { outcomes: string[]; cards: { id: string; version: number; due: number }[] };
    };
    const now = Date.now();
    // Again: the learning step brings it back in minutes, at its next version, with its answer.
    const again = await send([{ termId, version: 0, grade: "again", at: now }]);
    expect(again.outcomes).toEqual(["applied"]);
    expect(again.cards.map((card) => [card.id, card.version])).toEqual([[termId, 1]]);
    expect(again.cards[0]!.due).toBeGreaterThan(now);
    expect(again.cards[0]!.due).toBeLessThan(now + 3_600_000);
    // The same grade again changes nothing and brings nothing back.
    expect(await send([{ termId, version: 0, grade: "again", at: now }])).toEqual({
      outcomes: ["duplicate"],
      cards: [],
    });
    // Easy sends it days away: nothing comes back today.
    expect(await send([{ termId, version: 1, grade: "easy", at: now + 1 }])).toEqual({
      outcomes: ["applied"],
      cards: [],
    });
  });
});
