import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, signedInBrowser, startApp, textOf, toastsIn } from "../support/app";
import { startMailSink } from "../support/mail-sink";
import type { Database } from "../../app/db/db.server";
import { learnerStatistics } from "../../app/progress/statistics.server";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "../fixtures", name), "utf8");
const DAY = 86_400_000;

/** The hidden fields of the preview's confirm form, as a browser submits them. */
function confirmFields(html: string): Record<string, string> {
  const form = html.match(/<form[^>]*class="actions"[^>]*>[\s\S]*?<\/form>/)?.[0] ?? "";
  const fields: Record<string, string> = { intent: "confirm" };
  for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[name!] = value!;
  return fields;
}

/** Progress, import and export, run against whichever database `databaseEnv` configures. */
export function defineDataSuite(databaseName: string, databaseEnv: () => Promise<Record<string, string>>) {
  describe(`progress, import and export on ${databaseName}`, () => {
    let app: App;
    let mail: Awaited<ReturnType<typeof startMailSink>>;

    beforeAll(async () => {
      mail = await startMailSink();
      app = await startApp({ ...(await databaseEnv()), SMTP_URL: mail.url });
    });
    afterAll(async () => {
      await app?.stop();
      await mail?.close();
    });

    const learner = (name: string) => signedInBrowser(app, mail, `${name}-${Date.now()}@example.com`);
    const userIdOf = async (browser: Browser) => {
      const id = (
        await browser.request("/account/terms/new", {
          method: "POST",
          form: {
            text: `probe-${Math.random()}`,
            meaning: "",
            partOfSpeech: "noun",
            notes: "",
            sentence: "",
            translation: "",
          },
        })
      ).headers
        .get("Location")!
        .split("/")
        .at(-1)!;
      const { rows } = await app.db.execute(sql`delete from terms where id = ${id} returning user_id`);
      return String(rows[0]!.user_id);
    };

    /** Uploads content as a file (multipart, as the form sends it) and returns the preview page's address. */
    async function upload(browser: Browser, content: string, fileName = "terms.csv") {
      const form = new FormData();
      form.set("intent", "upload");
      form.set("file", new File([content], fileName, { type: "text/plain" }));
      form.set("pasted", "");
      const response = await browser.request("/account/import", {
        method: "POST",
        body: form,
        headers: { Origin: APP_URL },
      });
      expect(response.status).toBe(303);
      return response.headers.get("Location")!;
    }
    async function confirm(browser: Browser, previewUrl: string) {
      const { html } = await browser.page(previewUrl);
      return browser.request("/account/import", { method: "POST", form: confirmFields(html) });
    }
    const termsOf = async (userId: string) =>
      (
        await app.db.execute(
          sql`select text, meaning, part_of_speech as pos, notes from terms where user_id = ${userId} order by text`,
        )
      ).rows;

    it("imports a pasted CSV after a preview listing bad rows by line and counting duplicates", async () => {
      const ann = await learner("ann");
      const userId = await userIdOf(ann);
      await ann.request("/account/terms/new", {
        method: "POST",
        form: { text: "apple", meaning: "", partOfSpeech: "noun", notes: "", sentence: "", translation: "" },
      });
      const pasted = [
        "text,meaning,part of speech,notes,example",
        "book,a thing to read,noun,,I read a book. | Leo un libro.",
        "Apple,already there,noun,,",
        "run,move fast,verb,irregular,",
        ",no term,noun,,",
        "quick,fast,adjectiv,,",
        "BOOK,twice in the file,noun,,",
      ].join("\n");
      const posted = await ann.request("/account/import", { method: "POST", form: { intent: "upload", pasted } });
      expect(posted.status).toBe(303);
      const previewUrl = posted.headers.get("Location")!;
      expect(previewUrl).toMatch(/^\/account\/import\?draft=[0-9a-f-]{36}$/);
      const preview = textOf((await ann.page(previewUrl)).html);
      expect(preview).toContain("2 new terms will be added to your English terms.");
      expect(preview).toContain("2 duplicates skipped");
      expect(preview).toContain("2 rows with problems skipped");
      expect(preview).toContain("Line 5: the term is empty.");
      expect(preview).toContain("Line 6: “adjectiv” is not a part of speech from the list.");
      expect(preview).toContain("book a thing to read Noun");
      // Nothing is added before the learner confirms.
      expect(await termsOf(userId)).toHaveLength(1);
      const done = await confirm(ann, previewUrl);
      expect(done.status).toBe(302);
      expect(done.headers.get("Location")).toBe("/account/explore/member");
      expect(toastsIn((await ann.page("/account/explore/member")).html)[0]).toEqual([
        "Import finished",
        "2 terms added, 2 duplicates skipped.",
      ]);
      expect(await termsOf(userId)).toEqual([
        { text: "apple", meaning: "", pos: "noun", notes: "" },
        { text: "book", meaning: "a thing to read", pos: "noun", notes: "" },
        { text: "run", meaning: "move fast", pos: "verb", notes: "irregular" },
      ]);
      const { rows: examples } = await app.db.execute(
        sql`select e.sentence, e.translation from term_examples e join terms t on t.id = e.term_id where t.user_id = ${userId}`,
      );
      expect(examples).toEqual([{ sentence: "I read a book.", translation: "Leo un libro." }]);
      // The draft is gone once imported: confirming again finds nothing.
      expect((await confirm(ann, previewUrl)).status).toBe(404);
    });

    it("reads Anki's Notes in Plain Text export: header lines, tabs, quotes and HTML", async () => {
      const ben = await learner("ben");
      const userId = await userIdOf(ben);
      const previewUrl = await upload(ben, fixture("anki-notes.txt"), "Spanish.txt");
      const preview = textOf((await ben.page(previewUrl)).html);
      expect(preview).toContain("Anki “Notes in Plain Text” export · Spanish.txt");
      expect(preview).toContain("4 new terms will be added");
      expect(preview).toContain("Line 8: the term is empty.");
      expect((await confirm(ben, previewUrl)).status).toBe(302);
      // The file has no part of speech: the terms have none either, and every page shows them without one.
      expect(await termsOf(userId)).toEqual([
        { text: "casa", meaning: "house", pos: "", notes: "" },
        { text: "gato", meaning: "cat & kitten", pos: "", notes: "" },
        { text: "la mesa", meaning: 'the table; a "desk"', pos: "", notes: "" },
        { text: "perro", meaning: "dog\nhound", pos: "", notes: "" },
      ]);
      const { rows: ids } = await app.db.execute(sql`select id from terms where user_id = ${userId} and text = 'casa'`);
      const pages = [
        `/account/terms/${String(ids[0]!.id)}`,
        "/account/explore/member",
        "/account/review",
        "/account/review?reveal=1",
        "/account/export?format=csv",
      ];
      for (const page of pages) {
        const response = await ben.request(page);
        expect(response.status, page).toBe(200);
        expect(textOf(await response.text()), page).not.toMatch(/partsOfSpeech|undefined/);
      }
      // Edited without choosing one, the term keeps none; the JSON export carries it and reads back.
      const edited = await ben.request(`/account/terms/${String(ids[0]!.id)}`, {
        method: "POST",
        form: { intent: "update", text: "casa", meaning: "home", partOfSpeech: "", notes: "" },
      });
      expect(edited.status).toBe(302);
      const exported = await (await ben.request("/account/export?format=json")).json();
      expect(exported.terms.map((term: { partOfSpeech: string }) => term.partOfSpeech)).toEqual(["", "", "", ""]);
      const dan = await learner("dan-pos");
      const back = await upload(dan, JSON.stringify(exported), "polyglot-export.json");
      expect(textOf((await dan.page(back)).html)).toContain("4 terms will be added");
    });

    it("reads LingQ's CSV export by its column names, with a chosen default part of speech", async () => {
      const cem = await learner("cem");
      const userId = await userIdOf(cem);
      const previewUrl = await upload(cem, fixture("lingq-export.csv"), "lingqs.csv");
      const preview = textOf(
        (
          await cem.page(
            `${previewUrl}&col0=text&col1=meaning&col2=example&col3=ignore&col4=ignore&col5=ignore&col6=ignore&pos=verb`,
          )
        ).html,
      );
      expect(preview).toContain("3 new terms will be added");
      expect(preview).toContain("1 duplicate skipped");
      const { html } = await cem.page(
        `${previewUrl}&col0=text&col1=meaning&col2=example&col3=ignore&col4=ignore&col5=ignore&col6=ignore&pos=verb`,
      );
      const fields = confirmFields(html);
      expect(fields).toMatchObject({ col0: "text", col1: "meaning", col2: "example", pos: "verb" });
      expect((await cem.request("/account/import", { method: "POST", form: fields })).status).toBe(302);
      expect(await termsOf(userId)).toEqual([
        { text: "Haus", meaning: "house", pos: "verb", notes: "" },
        { text: "laufen", meaning: "to run", pos: "verb", notes: "" },
        { text: "schön, sehr", meaning: "very beautiful", pos: "verb", notes: "" },
      ]);
      const { rows } = await app.db.execute(
        sql`select e.sentence from term_examples e join terms t on t.id = e.term_id where t.user_id = ${userId} order by e.sentence`,
      );
      expect(rows.map((r) => r.sentence)).toEqual(["Das Haus ist alt.", "Wir laufen jeden Morgen, auch im Winter."]);
    });

    it("imports 10,000 rows in under 10 seconds, through a body larger than other forms accept", async () => {
      const dan = await learner("dan");
      const userId = await userIdOf(dan);
      const rows = Array.from(
        { length: 10_000 },
        (_, i) => `word${i}\tmeaning of word ${i}\tnoun\t\tThis is word ${i}.`,
      );
      const content = ["text\tmeaning\tpos\tnotes\texample", ...rows].join("\n");
      expect(content.length).toBeGreaterThan(64 * 1024);
      const previewUrl = await upload(dan, content, "big.tsv");
      const { html } = await dan.page(previewUrl);
      expect(textOf(html)).toContain("10,000 new terms will be added");
      // The import itself: one POST, one transaction. PGlite runs inside this process, so its work is this process's
      // CPU time, which a busy shared machine does not inflate as it does the wall time; PostgreSQL is measured by
      // the wall clock.
      const started = performance.now();
      const cpu = process.cpuUsage();
      const done = await dan.request("/account/import", { method: "POST", form: confirmFields(html) });
      const seconds = (performance.now() - started) / 1000;
      const { user, system } = process.cpuUsage(cpu);
      const cpuSeconds = (user + system) / 1e6;
      expect(done.status).toBe(302);
      console.info(
        `10,000-row import on ${databaseName}: ${seconds.toFixed(2)} s wall, ${cpuSeconds.toFixed(2)} s CPU of the test process`,
      );
      expect(databaseName === "PGlite" ? cpuSeconds : seconds).toBeLessThan(10);
      const { rows: counts } = await app.db.execute(
        sql`select (select count(*)::int from terms where user_id = ${userId}) as terms, (select count(*)::int from term_examples e join terms t on t.id = e.term_id where t.user_id = ${userId}) as examples`,
      );
      expect(counts[0]).toEqual({ terms: 10_000, examples: 10_000 });
    });

    it("imports nothing at all when one row fails in the database (one transaction)", async () => {
      const eve = await learner("eve");
      const userId = await userIdOf(eve);
      await app.db.execute(
        sql.raw(`create or replace function refuse_exploding_term() returns trigger language plpgsql as $$
        begin if new.text = 'explode' then raise exception 'refused for the test'; end if; return new; end $$`),
      );
      await app.db.execute(
        sql.raw(
          `create trigger refuse_exploding_term before insert on terms for each row execute function refuse_exploding_term()`,
        ),
      );
      try {
        const previewUrl = await upload(eve, "alpha,first\nbeta,second\nexplode,third\ngamma,fourth\n");
        expect(textOf((await eve.page(previewUrl)).html)).toContain("4 new terms will be added");
        const failed = await confirm(eve, previewUrl);
        expect(failed.status).toBe(500);
        expect(await termsOf(userId)).toEqual([]);
      } finally {
        await app.db.execute(sql.raw("drop trigger if exists refuse_exploding_term on terms"));
        await app.db.execute(sql.raw("drop function if exists refuse_exploding_term()"));
      }
    });

    it("takes a larger body on the import page only; every other form keeps the 64 KiB limit", async () => {
      const fay = await learner("fay");
      const big = "x".repeat(70 * 1024);
      const imported = await fay.request("/account/import", {
        method: "POST",
        form: { intent: "upload", pasted: `${big},meaning` },
      });
      expect(imported.status).toBe(303);
      const term = await fay.request("/account/terms/new", {
        method: "POST",
        form: { text: big, partOfSpeech: "noun" },
      });
      expect(term.status).toBe(413);
      const tooBig = await fay.request("/de/account/import", {
        method: "POST",
        form: { intent: "upload", pasted: "y".repeat(5 * 1024 * 1024 + 1) },
      });
      expect(tooBig.status).toBe(413);
      expect(textOf(await tooBig.text())).toContain(
        "Die Datei war zu groß. Der Import nimmt Dateien bis höchstens 5 MB an",
      );
    });

    it("refuses an empty upload with a translated 400 and names an unreadable file", async () => {
      const gus = await learner("gus");
      const empty = await gus.request("/de/account/import", {
        method: "POST",
        form: { intent: "upload", pasted: "  " },
      });
      expect(empty.status).toBe(400);
      expect(textOf(await empty.text())).toContain("Wähle zuerst eine Datei oder füge Zeilen ein.");
      const previewUrl = await upload(gus, '{"format":"polyglot-export","version":99,"terms":[]}', "broken.json");
      expect(textOf((await gus.page(previewUrl)).html)).toContain(
        "This file could not be read as CSV, TSV or a Polyglot JSON export.",
      );
      expect((await gus.request("/account/import?draft=not-an-id")).status).toBe(404);
    });

    it("exports everything as JSON that imports into an empty account with nothing lost, and as CSV", async () => {
      const hal = await learner("hal");
      const halId = await userIdOf(hal);
      const created = await hal.request("/account/terms/new", {
        method: "POST",
        form: {
          text: "Fernweh",
          meaning: "longing for far places",
          partOfSpeech: "noun",
          notes: "German",
          sentence: "Ich habe Fernweh.",
          translation: "I long to travel.",
        },
      });
      const termId = created.headers.get("Location")!.split("/").at(-1)!;
      await hal.request(`/account/terms/${termId}`, {
        method: "POST",
        form: { intent: "addExample", sentence: "Fernweh, again.", translation: "" },
      });
      await hal.request("/account/terms/new", {
        method: "POST",
        form: {
          text: "ephemeral",
          meaning: "short-lived",
          partOfSpeech: "adjective",
          notes: "",
          sentence: "",
          translation: "",
        },
      });
      for (const grade of ["again", "good", "good", "easy"]) {
        await app.db.execute(sql`update terms set due = now() - interval '1 minute' where id = ${termId}`);
        expect((await hal.request("/account/review", { method: "POST", form: { termId, grade } })).status).toBe(303);
      }
      // A second study language: the export covers every language.
      await app.db.execute(
        sql`insert into terms (user_id, language, text, part_of_speech) values (${halId}, 'fr', 'bonjour', 'interjection')`,
      );
      // Known words (ADR 105), in two languages: no terms, exported beside them.
      await app.db.execute(
        sql`insert into ignored_words (user_id, language, word, created_at) values
          (${halId}, 'en', 'haus', '2026-11-02T08:00:00Z'), (${halId}, 'fr', 'merci', '2026-11-03T08:00:00Z')`,
      );
      // A plan, a pledge made signed in and one made with the address before (kept as Stripe's webhooks write them).
      await app.db.execute(
        sql`insert into subscriptions (user_id, customer_id, subscription_id, plan, period, status, amount, currency,
            current_period_end, event_at) values (${halId}, 'cus_hal', 'sub_hal', 'supporter', 'monthly', 'active', 400,
            'eur', '2026-12-27T00:00:00Z', now())`,
      );
      await app.db.execute(
        sql`insert into pledges (checkout_session_id, payment_intent_id, user_id, email, amount, refunded, currency, created_at)
            select 'cs_hal_1', 'pi_hal_1', id, email, 2500, 0, 'eur', '2026-11-01T10:00:00Z' from users where id = ${halId}`,
      );
      await app.db.execute(
        sql`insert into pledges (checkout_session_id, payment_intent_id, email, amount, refunded, currency, created_at)
            select 'cs_hal_2', 'pi_hal_2', email, 1000, 1000, 'eur', '2026-10-01T10:00:00Z' from users where id = ${halId}`,
      );

      const json = await hal.request("/account/export?format=json");
      expect(json.status).toBe(200);
      expect(json.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
      expect(json.headers.get("Content-Disposition")).toMatch(
        /^attachment; filename="polyglot-export-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      expect(json.headers.get("Cache-Control")).toBe("private, no-store");
      const exported = await json.text();
      const document = JSON.parse(exported);
      expect(document.terms).toHaveLength(3);
      const fernweh = document.terms.find((t: { text: string }) => t.text === "Fernweh");
      expect(fernweh.reviews.map((r: { rating: number }) => r.rating)).toEqual([1, 3, 3, 4]);
      expect(fernweh.examples).toHaveLength(2);
      expect(fernweh.card.reps).toBe(4);
      expect(document.plan).toMatchObject({
        plan: "supporter",
        period: "monthly",
        status: "active",
        amount: 400,
        currency: "eur",
        currentPeriodEnd: "2026-12-27T00:00:00.000Z",
        stripeCustomer: "cus_hal",
      });
      expect(document.payments).toEqual([
        {
          for: "pledge",
          amount: 1000,
          refunded: 1000,
          currency: "eur",
          paidAt: "2026-10-01T10:00:00.000Z",
          stripePaymentIntent: "pi_hal_2",
        },
        {
          for: "pledge",
          amount: 2500,
          refunded: 0,
          currency: "eur",
          paidAt: "2026-11-01T10:00:00.000Z",
          stripePaymentIntent: "pi_hal_1",
        },
      ]);
      expect(document.pledges.map((p: { amount: number }) => p.amount)).toEqual([1000, 2500]);
      expect(document.knownWords).toEqual([
        { language: "en", word: "haus", markedAt: "2026-11-02T08:00:00.000Z" },
        { language: "fr", word: "merci", markedAt: "2026-11-03T08:00:00.000Z" },
      ]);

      const csv = await hal.request("/account/export?format=csv");
      expect(csv.headers.get("Content-Disposition")).toMatch(
        /^attachment; filename="polyglot-terms-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const csvText = await csv.text();
      expect(csvText.split("\n")[0]).toBe(
        "language,text,reading,meaning,part_of_speech,notes,examples,stage,created_at,due,stability,difficulty,elapsed_days,scheduled_days,learning_steps,reps,lapses,state,last_review",
      );
      expect(csvText).toContain(
        'en,Fernweh,,longing for far places,noun,German,"Ich habe Fernweh. | I long to travel.\nFernweh, again."',
      );
      const reviews = await (await hal.request("/account/export?format=csv&part=reviews")).text();
      expect(reviews.trim().split("\n")).toHaveLength(5);
      for (const bad of ["?format=xml", "?format=json&part=reviews", "?format=csv&part=all"])
        expect((await hal.request(`/account/export${bad}`)).status, bad).toBe(400);

      // Into an empty account: the second export equals the first in everything but the export time.
      const ida = await learner("ida");
      const previewUrl = await upload(ida, exported, "polyglot-export.json");
      const preview = textOf((await ida.page(previewUrl)).html);
      expect(preview).toContain("Polyglot JSON export");
      expect(preview).toContain("3 terms will be added with their examples, stages and review history.");
      expect((await confirm(ida, previewUrl)).status).toBe(302);
      const again = JSON.parse(await (await ida.request("/account/export?format=json")).text());
      // The plan, payments and pledges are the exporter's: the import leaves them out.
      expect({ ...again, exportedAt: null }).toEqual({
        ...document,
        exportedAt: null,
        plan: null,
        payments: [],
        pledges: [],
      });
      // Importing the same file again adds nothing: every term is a duplicate.
      const twice = await upload(ida, exported, "polyglot-export.json");
      expect(textOf((await ida.page(twice)).html)).toContain("3 duplicates skipped");

      // The known words' CSV: a row of kind "known" each, which the import reads back as known words, not terms.
      const knownCsv = await hal.request("/account/export?format=csv&part=known");
      expect(knownCsv.headers.get("Content-Disposition")).toMatch(
        /^attachment; filename="polyglot-known-words-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const knownText = await knownCsv.text();
      expect(knownText.trim().split("\n")).toEqual([
        "kind,language,word,marked_at",
        "known,en,haus,2026-11-02T08:00:00.000Z",
        "known,fr,merci,2026-11-03T08:00:00.000Z",
      ]);
      const jan = await learner("jan");
      const janId = await userIdOf(jan);
      expect((await confirm(jan, await upload(jan, knownText, "polyglot-known-words.csv"))).status).toBe(302);
      const { rows: janKnown } = await app.db.execute(sql`select language, word, created_at from ignored_words
        where user_id = ${janId} order by language`);
      expect(janKnown.map((row) => ({ ...row, created_at: new Date(row.created_at as string).toISOString() }))).toEqual(
        [
          { language: "en", word: "haus", created_at: "2026-11-02T08:00:00.000Z" },
          { language: "fr", word: "merci", created_at: "2026-11-03T08:00:00.000Z" },
        ],
      );
      const { rows: janTerms } = await app.db.execute(
        sql`select count(*)::int as n from terms where user_id = ${janId}`,
      );
      expect(janTerms).toEqual([{ n: 0 }]);
    });

    it("shows reviews per day, forecast, retention, stages and the streak from the review history", async () => {
      const jo = await learner("jo");
      const created = await jo.request("/account/terms/new", {
        method: "POST",
        form: { text: "streak", meaning: "", partOfSpeech: "noun", notes: "", sentence: "", translation: "" },
      });
      const termId = created.headers.get("Location")!.split("/").at(-1)!;
      const now = Date.now();
      const at = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();
      await app.db.execute(
        sql`update terms set state = 2, scheduled_days = 3, due = ${new Date(now + 3 * DAY).toISOString()}, last_review = ${at(0)}, created_at = ${at(10)} where id = ${termId}`,
      );
      for (const [daysAgo, rating, scheduled] of [
        [0, 3, 3],
        [1, 1, 0],
        [1, 3, 1],
        [2, 3, 1],
        [4, 4, 2],
      ] as const)
        await app.db.execute(
          sql`insert into review_logs (term_id, rating, state, reviewed_at, scheduled_days) values (${termId}, ${rating}, 2, ${at(daysAgo)}, ${scheduled})`,
        );
      // A goal of one minute, which any day with a grade reaches: the streak is the same before and after the rule's
      // change (ADR 119), whatever the date of the run.
      await jo.request("/account/settings", { method: "POST", form: { intent: "goal", goal: "own", goalOwn: "1" } });
      const { html, response } = await jo.page("/account/statistics");
      expect(response.status).toBe(200);
      const text = textOf(html);
      expect(text).toContain("Streak: 3 days in a row at your daily goal");
      expect(text).toContain("5 reviews in this period");
      expect(text).toContain("80% of 5 reviews in this period were not graded Again.");
      expect(text).toContain("1 term comes due in the next 30 days, 0 of them today.");
      expect(text).toContain("Today: 0 to learn, 1 in progress, 0 needing review, 0 learned.");
      // Reviews, words known (ADR 105), forecast, retention and stages.
      expect(html.match(/<svg[^>]*role="img"/g)).toHaveLength(5);
      expect(html.match(/<table>/g)).toHaveLength(5);
      expect(text).toContain("Reviews per day, last 30 days");
      expect(textOf((await jo.page("/account/statistics?days=90")).html)).toContain("Reviews per day, last 90 days");
      const bad = await jo.request("/de/account/statistics?days=7");
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain('lang="de"');

      // The forecast counts a term on its due day in the learner's zone (a day apart across the date line), and an
      // overdue one today.
      const { rows } = await app.db.execute(sql`select user_id from terms where id = ${termId}`);
      const userId = String(rows[0]!.user_id);
      const db = app.db as unknown as Database;
      const dayIn = (zone: string, moment: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(moment);
      const noonTomorrow = new Date(
        Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate() + 1, 12),
      );
      await app.db.execute(sql`update terms set due = ${noonTomorrow.toISOString()} where id = ${termId}`);
      const days = new Set<string>();
      for (const zone of ["Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"]) {
        const { forecast } = await learnerStatistics(db, userId, zone, 30, new Date(now));
        expect(forecast.filter((day) => day.due > 0)).toEqual([{ day: dayIn(zone, noonTomorrow), due: 1 }]);
        days.add(dayIn(zone, noonTomorrow));
      }
      expect(days.size).toBe(2);
      await app.db.execute(sql`update terms set due = ${at(2)} where id = ${termId}`);
      const overdue = await learnerStatistics(db, userId, "Asia/Tokyo", 30, new Date(now));
      expect(overdue.forecast[0]).toEqual({ day: dayIn("Asia/Tokyo", new Date(now)), due: 1 });
    });
  });
}
