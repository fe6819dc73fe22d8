/**
 * The player's cards come in batches (issue 59): the page carries the first 25 of the day's cards, the player asks for
 * the next ones (`/account/player/cards?after=`) and a page without JavaScript links to them; together they are the
 * day's cards within the daily limits, once each, in the review's order. Through the production build on PGlite, a
 * learner signed in through the real flow (SMTP sink). Needs `npm run build`.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInLearner, startApp } from "#tests/support/app.ts";
import { startMailSink } from "#tests/support/mail-sink.ts";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInLearner>>["browser"];
type Deck = {
  owner: string;
  cards: { id: string; text: string; version: number }[];
  next: string | null;
  total: number;
};

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

async function addTerms(browser: Browser, count: number): Promise<string[]> {
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = `Wort${String(i).padStart(2, "0")}`;
    const response = await browser.request("/account/terms/new", {
      method: "POST",
      form: { text, meaning: `word ${i}`, partOfSpeech: "noun", notes: "", sentence: "", translation: "" },
    });
    expect(response.status, text).toBe(302);
    texts.push(text);
  }
  return texts;
}

async function cards(browser: Browser, after: string): Promise<Deck> {
  const response = await browser.request(`/account/player/cards?after=${encodeURIComponent(after)}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  return (await response.json()) as Deck;
}

/** The terms the page lists (without JavaScript), its title's count and its link to the next ones. */
async function page(browser: Browser, query = "") {
  const response = await browser.request(`/account/player${query}`);
  expect(response.status).toBe(200);
  const html = await response.text();
  const list = html.slice(html.indexOf('class="player-list"'));
  return {
    texts: [...list.matchAll(/class="player-term">([^<]+)</g)].map((match) => match[1]!),
    title: /<summary>([^<]+)<\/summary>/.exec(list)?.[1],
    more: /href="(\/account\/player\?after=[^"]+)"/.exec(list)?.[1]?.replaceAll("&amp;", "&"),
  };
}

describe("the player's batches", () => {
  it("carry the day's cards within the limits, once each and in order, with and without JavaScript", async () => {
    const { browser } = await signedInLearner(app, mail, "player-batches");
    const settings = await browser.request("/account/settings", {
      method: "POST",
      form: { intent: "settings", newPerDay: "40", reviewsPerDay: "10000", timeZone: "UTC", modes: "forward" },
    });
    expect(settings.status).toBe(302);
    // 60 new terms due, 40 of them within today's limit, in the order they were added.
    const texts = await addTerms(browser, 60);
    const wanted = texts.slice(0, 40);

    const first = await page(browser);
    expect(first.texts).toEqual(wanted.slice(0, 25));
    expect(first.title).toBe("Today’s terms (40)");
    expect(first.more).toBeDefined();
    const second = await page(browser, first.more!.slice("/account/player".length));
    expect(second.texts).toEqual(wanted.slice(25));
    expect(second.more).toBeUndefined();

    // The player's way: the JSON of the next batch, with a grade given in between (the limit it used counted once).
    const after = new URL(first.more!, "http://app").searchParams.get("after")!;
    // The first card of the day, graded as the review and the player grade it.
    const { rows } = await app.db.execute(sql`select id from terms where text = ${wanted[0]!}`);
    const deck = await browser.request("/account/review/deck");
    const { owner } = (await deck.json()) as { owner: string };
    const sync = await browser.request("/account/review/sync", {
      method: "POST",
      form: {
        owner,
        grades: JSON.stringify([{ termId: String(rows[0]!.id), version: 0, grade: "good", at: Date.now() }]),
      },
    });
    expect(sync.status).toBe(200);
    const next = await cards(browser, after);
    expect(next.cards.map((card) => card.text)).toEqual(wanted.slice(25));
    expect(next.next).toBeNull();
    expect(next.total).toBe(39);
  });

  it("answers a cursor it did not make with a 400, and a learner who is not signed in is sent to sign in", async () => {
    const { browser } = await signedInLearner(app, mail, "player-cursor");
    for (const after of [
      "x",
      "e30",
      "a".repeat(401),
      Buffer.from('{"due":"1; drop table terms"}').toString("base64url"),
    ]) {
      expect((await browser.request(`/account/player/cards?after=${after}`)).status, after).toBe(400);
      expect((await browser.request(`/account/player?after=${after}`)).status, after).toBe(400);
    }
    const stranger = app.browser();
    const response = await stranger.request("/account/player/cards?after=x");
    expect(response.status).toBe(302);
  });
});
