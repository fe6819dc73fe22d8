import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../../app/db/db.server";
import {
  dayAndQueue,
  learnerDayOf,
  nextInQueue,
  queueOf,
  settingsDayAndQueue,
  today,
  todaysReviews,
} from "../../app/learning/daily.server";
import { reviewState } from "../../app/learning/review-page.server";
import { DEFAULT_SETTINGS, readSettings } from "../../app/learning/settings.server";
import { createTerm, examplesOf, gradeTerm } from "../../app/learning/terms.server";
import { learnerScheduler } from "../../app/learning/fsrs-fit.server";
import { signedInBrowser, startApp, textOf, toastsIn } from "../support/app";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

const SETTINGS = { newPerDay: "20", reviewsPerDay: "200", timeZone: "UTC", modes: "forward" };

/** The daily loop (limits per day in the learner's zone, review modes, the home page's day) on one database. */
export function defineDailySuite(databaseName: string, databaseEnv: () => Promise<Record<string, string>>) {
  describe(`the daily loop on ${databaseName}`, () => {
    let app: App;
    let db: Database;
    let mail: Awaited<ReturnType<typeof startMailSink>>;

    beforeAll(async () => {
      mail = await startMailSink();
      app = await startApp({ ...(await databaseEnv()), SMTP_URL: mail.url });
      db = app.db as unknown as Database;
    });
    afterAll(async () => {
      await app?.stop();
      await mail?.close();
    });

    async function learner(email: string, settings: Partial<Record<keyof typeof SETTINGS, string | string[]>> = {}) {
      const browser = await signedInBrowser(app, mail, email);
      const { rows } = await app.db.execute(sql`select id from users where email = ${email}`);
      const userId = String(rows[0]!.id);
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries({ ...SETTINGS, ...settings }))
        for (const one of [value].flat()) form.append(name, one);
      const saved = await browser.request("/account/settings", {
        method: "POST",
        body: form,
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost:3999" },
      });
      expect(saved.status).toBe(302);
      return { browser, userId, owner: { userId, language: "en" } };
    }

    async function addTerm(browser: Browser, fields: Record<string, string>) {
      const response = await browser.request("/account/terms/new", {
        method: "POST",
        form: { meaning: "", notes: "", sentence: "", translation: "", partOfSpeech: "noun", ...fields },
      });
      expect(response.status).toBe(302);
      // The next page shows the "Term added" toast, which names the term: seen here, so the review pages do not.
      await browser.page(response.headers.get("Location")!);
      return response.headers.get("Location")!.split("/").at(-1)!;
    }

    it("saves the settings and refuses bad values with translated messages and 400, keeping what was sent", async () => {
      const { browser } = await learner("settings@example.com", { newPerDay: "5", modes: ["forward", "cloze"] });
      const page = await browser.page("/account/settings");
      expect(toastsIn(page.html)[0]?.[0]).toBe("Settings saved");
      expect(page.html).toMatch(/name="newPerDay"[^>]*value="5"/);
      const checkbox = (mode: string) => page.html.match(new RegExp(`<input[^>]*value="${mode}"[^>]*>`))?.[0] ?? "";
      expect(checkbox("cloze")).toContain('checked=""');
      expect(checkbox("typed")).not.toContain('checked=""');
      const bad = await browser.request("/de/account/settings", {
        method: "POST",
        form: { newPerDay: "-1", reviewsPerDay: "20000", timeZone: "Mars/Olympus", intent: "settings" },
      });
      expect(bad.status).toBe(400);
      const text = textOf(await bad.text());
      expect(text).toContain("Gib eine ganze Zahl neuer Vokabeln von 0 bis 1.000 ein.");
      expect(text).toContain("Gib eine ganze Zahl an Wiederholungen von 0 bis 10.000 ein.");
      expect(text).toContain("Wähle eine Zeitzone aus der Liste.");
      expect(text).toContain("Wähle mindestens eine Abfrageart.");
      const unchanged = await readSettings(db, (await learner("settings2@example.com")).userId);
      expect(unchanged).toMatchObject({ newPerDay: 20, reviewsPerDay: 200, timeZone: "UTC", modes: ["forward"] });
    });

    it("deletes a learner's settings with the account", async () => {
      const { userId } = await learner("leaving@example.com", { newPerDay: "7" });
      const count = async () =>
        Number(
          (await app.db.execute(sql`select count(*)::int as n from learner_settings where user_id = ${userId}`))
            .rows[0]!.n,
        );
      expect(await count()).toBe(1);
      await app.db.execute(sql`delete from users where id = ${userId}`);
      expect(await count()).toBe(0);
    });

    it("takes the browser's zone only while the learner has none", async () => {
      const browser = await signedInBrowser(app, mail, "zone@example.com");
      const { rows } = await app.db.execute(sql`select id from users where email = 'zone@example.com'`);
      const userId = String(rows[0]!.id);
      expect((await readSettings(db, userId)).timeZone).toBeNull();
      const send = (timeZone: string) =>
        browser.request("/account/settings", { method: "POST", form: { intent: "browserTimeZone", timeZone } });
      expect((await send("Not/AZone")).status).toBe(400);
      expect((await send("Asia/Tokyo")).status).toBe(200);
      expect((await send("Europe/Berlin")).status).toBe(200);
      expect((await readSettings(db, userId)).timeZone).toBe("Asia/Tokyo");
    });

    it("counts new terms per calendar day in the learner's zone: Tokyo's day turns over, New York's does not", async () => {
      const tokyo = await learner("tokyo@example.com", { newPerDay: "2", timeZone: "Asia/Tokyo" });
      const newYork = await learner("newyork@example.com", { newPerDay: "2", timeZone: "America/New_York" });
      // 14:30 UTC is 23:30 in Tokyo and 10:30 in New York; 15:05 UTC is past midnight in Tokyo only.
      const evening = new Date("2026-03-10T14:30:00Z");
      const later = new Date("2026-03-10T14:31:00Z");
      const afterMidnight = new Date("2026-03-10T15:05:00Z");
      for (const who of [tokyo, newYork]) {
        for (const text of ["one", "two", "three", "four"]) await addTerm(who.browser, { text, meaning: text });
        await app.db.execute(sql`update terms set due = ${evening.toISOString()}::timestamptz - interval '1 hour',
          created_at = ${evening.toISOString()}::timestamptz - interval '1 hour' where user_id = ${who.userId}`);
        const settings = await readSettings(db, who.userId);
        for (let i = 0; i < 2; i++) {
          const day = await today(db, who.userId, settings, evening);
          const term = (await nextInQueue(db, who.owner, day, evening))?.term;
          expect(term?.state).toBe(0);
          await gradeTerm(db, who.userId, term!.id, "good", evening);
        }
        const { day, queue } = await dayAndQueue(db, who.owner, settings, later);
        expect(day).toMatchObject({ newDone: 2, newLeft: 0 });
        // Nothing now: the two new ones wait for tomorrow, the two learnt ones come back in their 10-minute step.
        expect(await nextInQueue(db, who.owner, day, later)).toBeNull();
        expect(queue.dueNow).toBe(0);
        expect(queue.nextLaterToday?.toISOString()).toBe("2026-03-10T14:40:00.000Z");
      }
      const tokyoNext = await dayAndQueue(db, tokyo.owner, await readSettings(db, tokyo.userId), afterMidnight);
      expect(tokyoNext.day).toMatchObject({ newDone: 0, newLeft: 2 });
      expect(tokyoNext.queue.dueNow).toBe(4);
      const nyNext = await dayAndQueue(db, newYork.owner, await readSettings(db, newYork.userId), afterMidnight);
      expect(nyNext.day).toMatchObject({ newDone: 2, newLeft: 0 });
      expect(nyNext.queue.dueNow).toBe(2);
    });

    it("reads the settings with the day: the same as one by one, again in the zone they name when another was expected", async () => {
      const tokyo = await learner("zone-read@example.com", { newPerDay: "3", timeZone: "Asia/Tokyo" });
      await addTerm(tokyo.browser, { text: "river", meaning: "river" });
      // 15:05 UTC is past midnight in Tokyo: the day read with UTC's bounds would be another one.
      const at = new Date("2026-03-10T15:05:00Z");
      const oneByOne = async (userId: string, owner: typeof tokyo.owner) => {
        const settings = await readSettings(db, userId);
        return { settings, ...(await dayAndQueue(db, owner, settings, at)) };
      };
      const expected = await oneByOne(tokyo.userId, tokyo.owner);
      expect(expected.settings).toMatchObject({ newPerDay: 3, timeZone: "Asia/Tokyo" });
      for (const expectedZone of ["Asia/Tokyo", "UTC", "America/New_York"]) {
        const read = await settingsDayAndQueue(db, tokyo.owner, expectedZone, at);
        expect({ ...read, scheduler: read.scheduler.parameters }).toEqual({
          ...expected,
          scheduler: expected.scheduler.parameters,
        });
      }
      // A learner who never saved settings has the defaults, read with the day all the same.
      const { rows } = await app.db.execute(
        sql`insert into users (email) values ('no-settings@example.com') returning id`,
      );
      const owner = { userId: String(rows[0]!.id), language: "en" };
      const defaults = await settingsDayAndQueue(db, owner, "UTC", at);
      expect(defaults.settings).toEqual(DEFAULT_SETTINGS);
      expect(defaults.day).toEqual((await oneByOne(owner.userId, owner)).day);
    });

    it("stops reviews at the daily review limit while the learning steps still come back", async () => {
      const who = await learner("reviews@example.com", { reviewsPerDay: "1", timeZone: "Europe/Berlin" });
      const noon = new Date("2026-06-01T10:00:00Z");
      const ids = [];
      for (const text of ["alpha", "beta", "gamma"]) ids.push(await addTerm(who.browser, { text, meaning: text }));
      // Three review cards due at noon, graded Easy once a week earlier.
      for (const id of ids) await gradeTerm(db, who.userId, id, "easy", new Date("2026-05-01T10:00:00Z"));
      await app.db.execute(
        sql`update terms set due = ${noon.toISOString()}::timestamptz where user_id = ${who.userId}`,
      );
      const settings = await readSettings(db, who.userId);
      let day = await today(db, who.userId, settings, noon);
      const first = (await nextInQueue(db, who.owner, day, noon))?.term;
      expect(first?.state).toBe(2);
      await gradeTerm(db, who.userId, first!.id, "again", noon);
      day = await today(db, who.userId, settings, noon);
      expect(day).toMatchObject({ reviewsDone: 1, reviewsLeft: 0 });
      const afterTheStep = new Date(noon.getTime() + 15 * 60_000);
      // The lapsed card relearns (not limited); the other two reviews wait for tomorrow in Berlin (22:00 UTC).
      const again = (await nextInQueue(db, who.owner, day, afterTheStep))?.term;
      expect(again?.id).toBe(first!.id);
      expect(again?.state).toBe(3);
      const tomorrow = new Date("2026-06-01T22:00:00Z");
      const next = await dayAndQueue(db, who.owner, settings, tomorrow);
      expect(next.day.reviewsLeft).toBe(1);
      expect(next.queue.dueNow).toBe(2);
    });

    it("reads the day and the queue in one query exactly as today() and queueOf() read them one by one", async () => {
      const who = await learner("one-read@example.com", {
        newPerDay: "2",
        reviewsPerDay: "2",
        timeZone: "America/New_York",
      });
      const morning = new Date("2026-07-01T13:00:00Z");
      const ids = [];
      for (const text of ["eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben"])
        ids.push(await addTerm(who.browser, { text, meaning: text }));
      // Reviews due now, later today and tomorrow; a learning step; new cards; grades earlier today and yesterday.
      for (const id of ids.slice(0, 4)) await gradeTerm(db, who.userId, id, "easy", new Date("2026-06-01T13:00:00Z"));
      const dueAt = (id: string, at: string) =>
        app.db.execute(sql`update terms set due = ${at}::timestamptz where id = ${id}`);
      await dueAt(ids[0]!, "2026-07-01T12:00:00Z");
      await dueAt(ids[1]!, "2026-07-01T18:00:00Z");
      await dueAt(ids[2]!, "2026-07-02T12:00:00Z");
      await gradeTerm(db, who.userId, ids[4]!, "again", morning);
      await gradeTerm(db, who.userId, ids[3]!, "good", new Date("2026-06-30T15:00:00Z"));
      // Grades of a card in another study language, yesterday (new) and this morning (a learning step, which no limit
      // counts): this language's grades leave it out.
      const french = await createTerm(
        db,
        { userId: who.userId, language: "fr" },
        {
          text: "chat",
          meaning: "cat",
          partOfSpeech: "noun",
          notes: "",
        },
      );
      await gradeTerm(db, who.userId, french.id, "good", new Date("2026-06-30T15:00:00Z"));
      await gradeTerm(db, who.userId, french.id, "good", new Date("2026-07-01T13:05:00Z"));
      const settings = await readSettings(db, who.userId);
      const oneByOne = async (at: Date) => {
        const day = await today(db, who.userId, settings, at);
        return { day, queue: await queueOf(db, who.owner, day, at) };
      };
      const moments = ["2026-07-01T13:00:00Z", "2026-07-01T13:30:00Z", "2026-07-01T19:00:00Z", "2026-07-02T03:59:59Z"];
      const dayAndQueueOnly = async (at: Date) => {
        const { day, gradedToday, queue } = await dayAndQueue(db, who.owner, settings, at);
        // Today's grades in this language, as the review's progress counts them.
        expect(gradedToday).toBe((await todaysReviews(db, who.owner, day)).reviewed);
        return { day, queue };
      };
      for (const at of moments.map((moment) => new Date(moment))) {
        expect(await dayAndQueueOnly(at)).toEqual(await oneByOne(at));
      }
      // With the day's reviews used up, the next card later today is a learning step's only.
      await gradeTerm(db, who.userId, ids[0]!, "good", morning);
      await gradeTerm(db, who.userId, ids[5]!, "hard", morning);
      await gradeTerm(db, who.userId, ids[3]!, "hard", new Date("2026-07-01T13:10:00Z"));
      for (const at of moments.map((moment) => new Date(moment))) {
        expect(await dayAndQueueOnly(at)).toEqual(await oneByOne(at));
      }
      // Each review carries its term's language (drizzle/0025; those logged before took it in 0027), and follows the
      // term's if that is changed in the database, its day's counts with it.
      const misfiled = async () => {
        const { rows } = await app.db.execute(sql`select count(*)::int as n from review_logs as r
          where r.user_id = ${who.userId} and r.language is distinct from (select t.language from terms as t
            where t.id = r.term_id)`);
        return Number(rows[0]!.n);
      };
      expect(await misfiled()).toBe(0);
      await app.db.execute(sql`update terms set language = 'de' where id = ${french.id}`);
      expect(await misfiled()).toBe(0);
      for (const at of moments.map((moment) => new Date(moment))) {
        expect(await dayAndQueueOnly(at)).toEqual(await oneByOne(at));
      }
      await app.db.execute(sql`update terms set language = 'fr' where id = ${french.id}`);
      expect(await misfiled()).toBe(0);
      for (const at of moments.map((moment) => new Date(moment))) {
        expect(await dayAndQueueOnly(at)).toEqual(await oneByOne(at));
      }
      const read = await dayAndQueue(db, who.owner, settings, morning);
      expect(read.day).toMatchObject({ newDone: 2, newLeft: 0, reviewsLeft: 0 });
      // The scheduler read with the day is the one a grade reads on its own.
      expect(read.scheduler.parameters).toEqual((await learnerScheduler(db, who.userId)).parameters);
    });

    it("says when the next card is due instead of a bare 'All done' (N minutes, plural wording)", async () => {
      const who = await learner("steps@example.com");
      const id = await addTerm(who.browser, { text: "ubiquitous", meaning: "found everywhere" });
      const at = new Date("2026-04-02T09:00:00Z");
      await gradeTerm(db, who.userId, id, "good", at);
      const state = await reviewState(
        db,
        who.owner,
        { revealed: false, answer: null, shownAt: null, locale: "en" },
        new Date(at.getTime() + 60_000),
      );
      expect(state).toMatchObject({ card: null, minutes: 9, nextDueAt: "2026-04-02T09:10:00.000Z" });
      // Through the page, on the real clock: a zone where the day is not about to end, so the step falls in it.
      const zone = new Date().getUTCHours() < 22 ? "UTC" : "Asia/Tokyo";
      const live = await learner("steps-live@example.com", { timeZone: zone });
      const liveId = await addTerm(live.browser, { text: "transient", meaning: "passing" });
      // A goal of one minute, which one grade reaches: the streak counts the days that reach the goal (ADR 119).
      await live.browser.request("/account/settings", {
        method: "POST",
        form: { intent: "goal", goal: "own", goalOwn: "1" },
      });
      await live.browser.request("/account/review", { method: "POST", form: { termId: liveId, grade: "good" } });
      const page = textOf((await live.browser.page("/account/review")).html);
      expect(page).toContain("Next card due in 10 minutes.");
      // Today's reviews are summed up: one reviewed, remembered, a minute, the next review, a streak of one day.
      expect(page).toContain("Today's reviews");
      expect(page).toMatch(/Reviewed ?1 ?Remembered ?100 ?% ?Time ?1 minute ?Next review ?\S.* ?Streak ?1 day/);
      expect(page).not.toContain("All done");
      expect(page).toContain("You reached today’s goal of 1 minute. Your streak goes on.");
      await live.browser.request(`/uk/account/settings`, {
        method: "POST",
        form: { ...SETTINGS, timeZone: zone, newPerDay: "1" },
      });
      expect(textOf((await live.browser.page("/uk/account/review")).html)).toContain(
        "Наступна картка через 10 хвилин.",
      );
    });

    it("keeps a learner's day in memory until their write, a card falling due or the day's end, never for another learner", async () => {
      const { browser, owner } = await learner("day-memory@example.com");
      const other = await learner("day-memory-other@example.com");
      const termId = await addTerm(browser, { text: "Gedächtnis" });
      const version = async (userId: string) => {
        const { rows } = await app.db.execute(sql`select data_version from users where id = ${userId}`);
        return Number(rows[0]!.data_version);
      };
      const read = async (who = owner) =>
        learnerDayOf({}, db, who, { dataVersion: await version(who.userId), fresh: true });
      const first = await read();
      expect(first.queue.dueNow).toBe(1);
      // The same version: the same day from memory, at this moment.
      const again = await read();
      expect(again.queue).toBe(first.queue);
      expect(again.now.getTime()).toBeGreaterThanOrEqual(first.now.getTime());
      // Another learner's day is theirs: nothing of the first one's.
      const theirs = await read(other.owner);
      expect(theirs.queue).not.toBe(first.queue);
      expect(theirs.queue.dueNow).toBe(0);
      // A write not made through a GET of this request (an action): read afresh, not from memory.
      const posted = await learnerDayOf({}, db, owner, { dataVersion: await version(owner.userId), fresh: false });
      expect(posted.queue).not.toBe(first.queue);
      // The learner's grade moves their data version: read again, the card is no longer due now.
      expect(await gradeTerm(db, owner.userId, termId, "again", new Date())).toBeTruthy();
      const graded = await read();
      expect(graded.queue).not.toBe(first.queue);
      expect(graded.queue.dueNow).toBe(0);
      expect(graded.queue.nextDue).not.toBeNull();
      // No write, but the card falls due: read again once its due time has passed.
      vi.useFakeTimers({ toFake: ["Date"] });
      try {
        vi.setSystemTime(graded.queue.nextDue!.getTime() + 1_000);
        const due = await read();
        expect(due.queue).not.toBe(graded.queue);
        expect(due.queue.dueNow).toBe(1);
      } finally {
        vi.useRealTimers();
      }
    });

    it("asks meaning → term and grades what the learner chose", async () => {
      const who = await learner("reverse@example.com", { modes: "reverse" });
      const id = await addTerm(who.browser, { text: "gregarious", meaning: "fond of company" });
      const front = textOf((await who.browser.page("/account/review")).html);
      expect(front).toContain("fond of company");
      expect(front).toContain("Meaning → term");
      expect(front).not.toContain("gregarious");
      const back = textOf((await who.browser.page("/account/review?reveal=1")).html);
      expect(back).toContain("gregarious");
      const graded = await who.browser.request("/account/review", {
        method: "POST",
        form: { termId: id, grade: "hard" },
      });
      expect(graded.status).toBe(303);
      const { rows } = await app.db.execute(sql`select rating from review_logs where term_id = ${id}`);
      expect(rows).toEqual([{ rating: 2 }]);
    });

    it.each([
      ["café", "good", "Correct"],
      ["CAFE", "hard", "Almost"],
      ["coffee", "again", "Not quite"],
    ])("checks a typed answer %j ignoring case and accents and suggests %s", async (answer, grade, verdict) => {
      const who = await learner(`typed-${grade}@example.com`, { modes: "typed" });
      const id = await addTerm(who.browser, { text: "café", meaning: "a small restaurant" });
      const front = await who.browser.page("/account/review");
      expect(textOf(front.html)).toContain("a small restaurant");
      expect(textOf(front.html)).not.toContain("café");
      expect(front.html).toContain('name="answer"');
      const { html } = await who.browser.page(`/account/review?reveal=1&answer=${encodeURIComponent(answer)}`);
      expect(textOf(html)).toContain(verdict);
      // Anything but an exact answer shows letter by letter what differs.
      if (grade === "good") expect(html).not.toContain(`class="typed-diff"`);
      else expect(html).toMatch(/class="typed-diff"[^>]*>.*<(ins|del)>/);
      const suggested = html.match(/<button[^>]*button-suggested[^>]*>/g) ?? [];
      expect(suggested).toHaveLength(1);
      expect(suggested[0]).toContain(`value="${grade}"`);
      // The learner may still choose another grade.
      await who.browser.request("/account/review", { method: "POST", form: { termId: id, grade: "easy" } });
      const { rows } = await app.db.execute(sql`select rating from review_logs where term_id = ${id}`);
      expect(rows).toEqual([{ rating: 4 }]);
    });

    it("counts a grade once when the same form is sent twice, one after the other and at once", async () => {
      const who = await learner("twice@example.com");
      const id = await addTerm(who.browser, { text: "steadfast", meaning: "firm" });
      const state = async () => {
        const { rows } = await app.db.execute(
          sql`select t.reps, (select count(*)::int from review_logs l where l.term_id = t.id) as logs from terms t where t.id = ${id}`,
        );
        return rows[0];
      };
      // The grade form of the revealed card, as a browser without JavaScript sends it.
      const gradeForm = async () => {
        const { html } = await who.browser.page("/account/review?reveal=1");
        const version = html.match(/name="version" value="(\d+)"/)?.[1];
        expect(version).toBeDefined();
        return { termId: id, grade: "good", version: version! };
      };
      const send = (form: Record<string, string>) => who.browser.request("/account/review", { method: "POST", form });

      const first = await gradeForm();
      expect(first.version).toBe("0");
      const answers = [await send(first), await send(first), await send({ ...first, grade: "again" })];
      // Each answer is the one a counted grade gets: back to the next card.
      for (const answer of answers) {
        expect(answer.status).toBe(303);
        expect(answer.headers.get("Location")).toBe("/account/review");
      }
      expect(await state()).toEqual({ reps: 1, logs: 1 });

      await app.db.execute(sql`update terms set due = now() - interval '1 minute' where id = ${id}`);
      const second = await gradeForm();
      expect(second.version).toBe("1");
      const together = await Promise.all([send(second), send(second), send(second)]);
      expect(together.map((answer) => answer.status)).toEqual([303, 303, 303]);
      expect(await state()).toEqual({ reps: 2, logs: 2 });

      // Straight to the grading transaction, at once: one of the grades of a version counts, the others are stale.
      const results = await Promise.all([1, 2, 3, 4].map(() => gradeTerm(db, who.userId, id, "easy", new Date(), 2)));
      expect(results.filter((result) => result === "stale")).toHaveLength(3);
      expect(await state()).toEqual({ reps: 3, logs: 3 });
      // A form without a version grades the card as it is now.
      expect((await send({ termId: id, grade: "hard" })).status).toBe(303);
      expect(await state()).toEqual({ reps: 4, logs: 4 });
    });

    it("grades the card as its page read it, without reading it again, unless its row changed since", async () => {
      const who = await learner("as-shown@example.com");
      const id = await addTerm(who.browser, { text: "lantern", meaning: "a lamp" });
      const state = async () => {
        const { rows } = await app.db.execute(
          sql`select t.reps, t.meaning, (select count(*)::int from review_logs l where l.term_id = t.id) as logs from terms t where t.id = ${id}`,
        );
        return rows[0];
      };
      const shownNow = async () => {
        const now = new Date();
        const card = await nextInQueue(
          db,
          who.owner,
          await today(db, who.userId, await readSettings(db, who.userId), now),
          now,
        );
        expect(card?.term.id).toBe(id);
        return card!;
      };
      const first = await shownNow();
      const graded = await gradeTerm(db, who.userId, id, "good", new Date(), 0, undefined, first);
      expect(graded).toMatchObject({ id, reps: 1 });
      expect(await state()).toEqual({ reps: 1, meaning: "a lamp", logs: 1 });
      // The same card sent again: its row is no longer the one shown, so it is read, and the version was graded.
      expect(await gradeTerm(db, who.userId, id, "again", new Date(), 0, undefined, first)).toBe("stale");
      expect(await state()).toEqual({ reps: 1, meaning: "a lamp", logs: 1 });

      await app.db.execute(sql`update terms set due = now() - interval '1 minute' where id = ${id}`);
      const second = await shownNow();
      // Written after the card was read (its meaning edited on another device): the grade reads the row as it is now.
      await app.db.execute(sql`update terms set meaning = 'a portable lamp' where id = ${id}`);
      const regraded = await gradeTerm(db, who.userId, id, "good", new Date(), 1, undefined, second);
      expect(regraded).toMatchObject({ id, reps: 2, meaning: "a portable lamp" });
      expect(await state()).toEqual({ reps: 2, meaning: "a portable lamp", logs: 2 });
    });

    it("asks a cloze from the term's own example, and falls back to another mode without one", async () => {
      const who = await learner("cloze@example.com", { modes: "cloze" });
      const id = await addTerm(who.browser, {
        text: "umbrella",
        meaning: "protection from rain",
        sentence: "Take an Umbrella, it is raining.",
        translation: "Nimm einen Schirm, es regnet.",
      });
      // The card and its examples are read together, as examplesOf reads them.
      await app.db.execute(
        sql`insert into term_examples (term_id, sentence, translation, created_at) values (${id}, 'An umbrella "and" \\ ü', '', now() + interval '1 second')`,
      );
      const settings = await readSettings(db, who.userId);
      const card = await nextInQueue(db, who.owner, await today(db, who.userId, settings), new Date());
      expect(card?.term.id).toBe(id);
      expect(card?.examples).toEqual(await examplesOf(db, id));
      expect(card?.examples).toHaveLength(2);
      await app.db.execute(sql`delete from term_examples where term_id = ${id} and translation = ''`);
      const front = textOf((await who.browser.page("/account/review")).html);
      expect(front).toMatch(/Take an _____ ?, it is raining\./);
      expect(front).toContain("Nimm einen Schirm, es regnet.");
      expect(front.toLowerCase()).not.toContain("umbrella");
      const back = textOf((await who.browser.page("/account/review?reveal=1")).html);
      // The gap is filled with the sentence's own form, and the translation is shown once.
      expect(back).toMatch(/Take an Umbrella ?, it is raining\./);
      expect(back.split("Nimm einen Schirm, es regnet.")).toHaveLength(2);
      await who.browser.request("/account/review", { method: "POST", form: { termId: id, grade: "easy" } });
      await addTerm(who.browser, { text: "puddle", meaning: "small pool of water", sentence: "Mind the step." });
      const fallbackPage = await who.browser.page("/account/review");
      const fallback = textOf(fallbackPage.html);
      expect(fallback).toContain("puddle");
      expect(fallback).toContain("Term → meaning");
      // The card says why it is not a cloze and offers to add an example.
      expect(fallback).toContain("None of this term's examples contains it, so no gap can be made");
      expect(fallbackPage.html).toMatch(/<a href="\/account\/terms\/[0-9a-f-]+#add-example"[^>]*>Add an example<\/a>/);
    });

    it("finds a German term in its example through its article and an inflected form", async () => {
      const who = await learner("cloze-de@example.com", { modes: "cloze" });
      await who.browser.request("/preferences", {
        method: "POST",
        form: { intent: "studyLanguage", studyLanguage: "de", redirectTo: "/account/home" },
      });
      await addTerm(who.browser, { text: "der Hund", meaning: "dog", sentence: "Die Hunde bellen laut." });
      const front = textOf((await who.browser.page("/account/review")).html);
      expect(front).toMatch(/Die _____ ?bellen laut\./);
      expect(textOf((await who.browser.page("/account/review?reveal=1")).html)).toMatch(/Die Hunde ?bellen laut\./);
    });

    it("shows a signed-in learner their day on the home page instead of the sign-in form", async () => {
      const who = await learner("home@example.com", { newPerDay: "3", reviewsPerDay: "7" });
      const id = await addTerm(who.browser, { text: "lucid", meaning: "clear" });
      const mine = textOf((await who.browser.page("/")).html);
      expect(mine).toContain("Your day");
      expect(mine).toContain("1 term to review now");
      expect(mine).toContain("3 new terms left today");
      expect(mine).toContain("7 reviews left today");
      expect(mine).toContain("Start review");
      expect((await who.browser.page("/")).html).not.toContain('id="home-email"');
      const anonymous = await app.browser().page("/");
      expect(anonymous.html).toContain('id="home-email"');
      expect(textOf(anonymous.html)).not.toContain("Your day");
      // My home leads with the next step and the day's goal; the day's figures are on this page.
      expect(textOf((await who.browser.page("/account/home")).html)).toContain("0 of 10 minutes of review today");
      expect(mine).toContain("Streak: 0 days in a row at your daily goal");
      await who.browser.request("/account/review", { method: "POST", form: { termId: id, grade: "good" } });
      // One grade counts a minute: short of the default goal of ten, enough for a goal of one.
      expect(textOf((await who.browser.page("/")).html)).toContain("Streak: 0 days in a row at your daily goal");
      await who.browser.request("/account/settings", {
        method: "POST",
        form: { intent: "goal", goal: "own", goalOwn: "1" },
      });
      expect(textOf((await who.browser.page("/")).html)).toContain("Streak: 1 day in a row at your daily goal");
    });
  });
}
