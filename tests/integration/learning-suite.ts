import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInBrowser, startApp, textOf, toastsIn } from "../support/app";
import { startMailSink } from "../support/mail-sink";
import spanishBeginner from "../../app/learning/public-lists/es-beginner.json";

/** The terms of the Spanish beginner list, as shipped. */
const SPANISH_BEGINNER = spanishBeginner.terms.length;

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

/** The learning core, run against whichever database `databaseEnv` configures. */
export function defineLearningSuite(databaseName: string, databaseEnv: () => Promise<Record<string, string>>) {
  describe(`the learning core on ${databaseName}`, () => {
    let app: App;
    let mail: Awaited<ReturnType<typeof startMailSink>>;
    let alice: Browser;
    let bob: Browser;

    beforeAll(async () => {
      mail = await startMailSink();
      app = await startApp({ ...(await databaseEnv()), SMTP_URL: mail.url });
      alice = await signedInBrowser(app, mail, "alice@example.com");
      bob = await signedInBrowser(app, mail, "bob@example.com");
    });
    afterAll(async () => {
      await app?.stop();
      await mail?.close();
    });

    async function addTerm(browser: Browser, fields: Record<string, string>) {
      const response = await browser.request("/account/terms/new", {
        method: "POST",
        form: { meaning: "", notes: "", sentence: "", translation: "", ...fields },
      });
      return response;
    }
    const termIdFrom = (response: Response) => response.headers.get("Location")!.split("/").at(-1)!;

    it("adds a term with its first example and shows it with plural wording", async () => {
      const response = await addTerm(alice, {
        text: "serendipity",
        meaning: "a happy accident",
        partOfSpeech: "noun",
        sentence: "It was pure serendipity.",
        translation: "Fue pura casualidad.",
      });
      expect(response.status).toBe(302);
      const id = termIdFrom(response);
      const { html } = await alice.page(`/account/terms/${id}`);
      expect(toastsIn(html)[0]?.[0]).toBe("Term added");
      expect(textOf(html)).toContain("1 example");
      await alice.request(`/account/terms/${id}`, {
        method: "POST",
        form: { intent: "addExample", sentence: "Serendipity led me here.", translation: "" },
      });
      expect(textOf((await alice.page(`/account/terms/${id}`)).html)).toContain("2 examples");
      expect(textOf((await alice.page("/account/explore/member?q=serendipity")).html)).toContain(
        "serendipity a happy accident Noun To learn 2 examples",
      );
      expect(textOf((await alice.page(`/uk/account/terms/${id}`)).html)).toContain("2 приклади");
    });

    it.each([
      [{ text: "", partOfSpeech: "noun" }, "Enter the term."],
      [{ text: "x".repeat(201), partOfSpeech: "noun" }, "Keep the term under 200 characters."],
      [{ text: "word", partOfSpeech: "gerund" }, "Choose a part of speech from the list."],
      [{ text: "word2", partOfSpeech: "noun", translation: "only a translation" }, "Enter the example sentence."],
    ])("refuses %j with 400 and a clear message next to the field", async (fields, message) => {
      const response = await addTerm(alice, fields);
      expect(response.status).toBe(400);
      expect(textOf(await response.text())).toContain(message);
    });

    it("adds a term with a meaning alone: the part of speech is optional", async () => {
      const response = await addTerm(alice, { text: "sonder", meaning: "the sense that others have lives as vivid" });
      expect(response.status).toBe(302);
      const page = textOf((await alice.page(`/account/terms/${termIdFrom(response)}`)).html);
      expect(page).toContain("sonder");
      expect(page).not.toContain("partsOfSpeech");
    });

    it("gives translated validation messages", async () => {
      const response = await alice.request("/de/account/terms/new", {
        method: "POST",
        form: { text: "", partOfSpeech: "noun" },
      });
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(html).toContain('lang="de"');
      expect(textOf(html)).not.toContain("Enter the term.");
    });

    it("refuses the same text twice in one language, whatever its case, with 409", async () => {
      expect((await addTerm(alice, { text: "Haus", partOfSpeech: "noun" })).status).toBe(302);
      const duplicate = await addTerm(alice, { text: "haus", partOfSpeech: "noun" });
      expect(duplicate.status).toBe(409);
      expect(textOf(await duplicate.text())).toContain("You already have “haus” in English.");
      // Another learner may have the same text.
      expect((await addTerm(bob, { text: "Haus", partOfSpeech: "noun" })).status).toBe(302);
    });

    it("answers another learner's term exactly like a missing one: 404 on GET and on every POST", async () => {
      const id = termIdFrom(
        await addTerm(alice, {
          text: "private",
          meaning: "mine",
          partOfSpeech: "adjective",
          sentence: "This is private.",
        }),
      );
      const { rows } = await app.db.execute(sql`select id from term_examples where term_id = ${id}`);
      const exampleId = String(rows[0]!.id);
      const missing = "3f1e7c2a-1d2b-4c3d-8e9f-0a1b2c3d4e5f";
      for (const target of [id, missing]) {
        const get = await bob.request(`/account/terms/${target}`);
        expect(get.status).toBe(404);
        expect(textOf(await get.text())).toContain(`Page not found: /account/terms/${target}`);
        const forms: Record<string, string>[] = [
          { intent: "update", text: "stolen", meaning: "", partOfSpeech: "noun", notes: "" },
          { intent: "stage", stage: "learned" },
          { intent: "addExample", sentence: "stolen", translation: "" },
          { intent: "removeExample", exampleId },
          { intent: "delete" },
        ];
        for (const form of forms) {
          const post = await bob.request(`/account/terms/${target}`, { method: "POST", form });
          expect(post.status, `${form.intent} on ${target === id ? "alice's term" : "a missing term"}`).toBe(404);
        }
      }
      const grade = await bob.request("/account/review", { method: "POST", form: { termId: id, grade: "easy" } });
      expect(grade.status).toBe(404);
      const { rows: after } = await app.db.execute(sql`select text, reps, state from terms where id = ${id}`);
      expect(after).toEqual([{ text: "private", reps: 0, state: 0 }]);
      const { rows: examples } = await app.db.execute(
        sql`select count(*)::int as n from term_examples where term_id = ${id}`,
      );
      expect(examples[0]!.n).toBe(1);
    });

    it("answers a malformed term id with 404 'Page Not Found: {path}'", async () => {
      const response = await alice.request("/account/terms/not-a-uuid");
      expect(response.status).toBe(404);
      expect(textOf(await response.text())).toContain("Page Not Found: /account/terms/not-a-uuid");
    });

    it("reviews due terms one at a time; a grade moves the card and its stage", async () => {
      const carol = await signedInBrowser(app, mail, "carol@example.com");
      const id = termIdFrom(
        await addTerm(carol, { text: "ephemeral", meaning: "short-lived", partOfSpeech: "adjective" }),
      );
      const front = textOf((await carol.page("/account/review")).html);
      expect(front).toContain("ephemeral");
      expect(front).not.toContain("short-lived");
      expect(textOf((await carol.page("/account/review?reveal=1")).html)).toContain("short-lived");
      const graded = await carol.request("/account/review", { method: "POST", form: { termId: id, grade: "easy" } });
      expect(graded.status).toBe(303);
      const { rows } = await app.db.execute(sql`select state, reps from terms where id = ${id}`);
      expect(rows[0]).toEqual({ state: 2, reps: 1 });
      const { rows: logs } = await app.db.execute(sql`select rating from review_logs where term_id = ${id}`);
      expect(logs).toEqual([{ rating: 4 }]);
      expect(textOf((await carol.page("/account/review")).html)).toContain("All done!");
      const bad = await carol.request("/account/review", { method: "POST", form: { termId: id, grade: "perfect" } });
      expect(bad.status).toBe(400);
    });

    it("remembers turning the review shortcuts off and on in a cookie; an unknown choice answers 400", async () => {
      const erin = await signedInBrowser(app, mail, "erin-keys@example.com");
      await addTerm(erin, { text: "laconic", meaning: "using few words", partOfSpeech: "adjective" });
      // Shortcuts need JavaScript: the server's page neither offers nor mentions them.
      const plain = await erin.page("/account/review");
      expect(plain.html).not.toContain("aria-keyshortcuts");
      expect(textOf(plain.html)).not.toContain("Keyboard shortcuts");
      expect(textOf(plain.html)).not.toContain("1 · Again");
      const off = await erin.request("/de/account/review", {
        method: "POST",
        form: { intent: "shortcuts", shortcuts: "off", revealed: "1" },
      });
      expect(off.status).toBe(303);
      expect(off.headers.get("Location")).toBe("/de/account/review?reveal=1");
      expect(off.headers.get("Set-Cookie")).toMatch(/^review-shortcuts=.*Max-Age=31536000.*HttpOnly.*SameSite=Lax/i);
      const on = await erin.request("/account/review", {
        method: "POST",
        form: { intent: "shortcuts", shortcuts: "on" },
      });
      expect(on.status).toBe(303);
      expect(on.headers.get("Set-Cookie")).not.toBe(off.headers.get("Set-Cookie"));
      const bad = await erin.request("/account/review", {
        method: "POST",
        form: { intent: "shortcuts", shortcuts: "sometimes" },
      });
      expect(bad.status).toBe(400);
      expect(textOf(await bad.text())).toContain("Choose whether keyboard shortcuts are on or off.");
    });

    it("changes a stage by hand, deletes a term after confirmation", async () => {
      const id = termIdFrom(await addTerm(alice, { text: "ubiquitous", partOfSpeech: "adjective" }));
      await alice.request(`/account/terms/${id}`, { method: "POST", form: { intent: "stage", stage: "learned" } });
      expect(textOf((await alice.page(`/account/terms/${id}`)).html)).toContain("Learned");
      // A stage change is not a review: no log entry, the review count unchanged, and the export says so.
      await alice.request(`/account/terms/${id}`, { method: "POST", form: { intent: "stage", stage: "inprogress" } });
      const { rows: logs } = await app.db.execute(
        sql`select count(*)::int as n from review_logs where term_id = ${id}`,
      );
      expect(logs[0]).toEqual({ n: 0 });
      const { rows: card } = await app.db.execute(sql`select reps, lapses from terms where id = ${id}`);
      expect(card[0]).toEqual({ reps: 0, lapses: 0 });
      const exported = await (await alice.request("/account/export?format=json")).json();
      const entry = exported.terms.find((term: { text: string }) => term.text === "ubiquitous");
      expect(entry).toMatchObject({ stage: "inprogress", card: { reps: 0 }, reviews: [] });
      expect(textOf((await alice.page(`/account/terms/${id}`)).html)).toContain("Reviewed 0 times");
      const confirm = textOf((await alice.page(`/account/terms/${id}?delete=1`)).html);
      expect(confirm).toContain("Delete “ubiquitous” and its examples?");
      const deleted = await alice.request(`/account/terms/${id}`, { method: "POST", form: { intent: "delete" } });
      expect(deleted.headers.get("Location")).toBe("/account/explore/member");
      expect((await alice.request(`/account/terms/${id}`)).status).toBe(404);
    });

    it("searches, filters, sorts and pages the member explore list", async () => {
      const dave = await signedInBrowser(app, mail, "dave@example.com");
      const { rows } = await app.db.execute(sql`select id from users where email = 'dave@example.com'`);
      const userId = String(rows[0]!.id);
      await app.db.execute(sql`insert into terms (user_id, language, text, meaning, part_of_speech)
      select ${userId}, 'en', 'word' || lpad(n::text, 3, '0'), 'meaning ' || n, case when n % 2 = 0 then 'noun' else 'verb' end
      from generate_series(1, 120) as n`);
      const all = textOf((await dave.page("/account/explore/member?sort=alphabetical")).html);
      expect(all).toContain("120 terms found");
      expect(all).toContain("Page 1 of 3");
      expect(all).toContain("word001");
      expect(all).not.toContain("word051");
      const page2 = textOf((await dave.page("/account/explore/member?sort=alphabetical&page=2")).html);
      expect(page2).toContain("word051");
      expect(page2).not.toContain("word001");
      const verbs = textOf((await dave.page("/account/explore/member?pos=verb&q=word01")).html);
      expect(verbs).toContain("5 terms found"); // word011, 013, 015, 017, 019
      const stage = textOf((await dave.page("/account/explore/member?stage=learned")).html);
      expect(stage).toContain("0 terms found");
      const toLearn = textOf((await dave.page("/account/explore/member?stage=tolearn&sort=alphabetical&page=3")).html);
      expect(toLearn).toContain("120 terms found");
      expect(toLearn).toContain("Page 3 of 3");
      expect(toLearn).toContain("word120");
      const nonsense = await dave.request("/account/explore/member?stage=bogus&page=-4&sort=x");
      expect(nonsense.status).toBe(200);
    });

    it("adds a public list in one action; adding twice changes nothing", async () => {
      const erin = await signedInBrowser(app, mail, "erin@example.com");
      const page = textOf((await erin.page("/account/explore/public?language=es&level=beginner")).html);
      expect(page).toContain("Spanish · Beginner");
      const first = await erin.request("/account/explore/public", {
        method: "POST",
        form: { intent: "addAll", language: "es", level: "beginner" },
      });
      expect(first.status).toBe(302);
      expect(toastsIn((await erin.page(first.headers.get("Location")!)).html)[0]?.[1]).toBe(
        `${SPANISH_BEGINNER} new terms added.`,
      );
      const second = await erin.request("/account/explore/public", {
        method: "POST",
        form: { intent: "addAll", language: "es", level: "beginner" },
      });
      expect(toastsIn((await erin.page(second.headers.get("Location")!)).html)[0]?.[1]).toBe("0 new terms added.");
      const { rows } = await app.db.execute(
        sql`select count(*)::int as n from terms t join users u on u.id = t.user_id where u.email = 'erin@example.com' and t.language = 'es'`,
      );
      expect(rows[0]!.n).toBe(SPANISH_BEGINNER);
      // Adding from a Spanish list means studying Spanish now.
      const home = (await erin.page("/account/home")).html;
      expect(textOf(home)).toContain("You study Spanish.");
      // New terms are all to learn; today's limit of new terms (20 by default) lets half of them in now.
      expect(home).toMatch(new RegExp(`data-stage="tolearn"><strong>${SPANISH_BEGINNER}</strong>`));
      expect(home).toMatch(/data-stage="learned"><strong>0<\/strong>/);
      // My home's next step is the review of the 20.
      expect(textOf(home)).toContain("20 terms are waiting for review.");
    });

    it("keeps the study language on the learner and in the cookie, named in the interface language", async () => {
      const frank = await signedInBrowser(app, mail, "frank@example.com");
      const saved = await frank.request("/preferences", {
        method: "POST",
        form: { intent: "studyLanguage", studyLanguage: "it", redirectTo: "/de/account/home" },
      });
      expect(saved.headers.get("Location")).toBe("/de/account/home");
      expect(frank.jar.get("studyLanguage")).toBeTruthy();
      expect(textOf((await frank.page("/de/account/home")).html)).toContain("Italienisch");
      expect(textOf((await frank.page("/account/home")).html)).toContain("Italian");
      const { rows } = await app.db.execute(sql`select study_language from users where email = 'frank@example.com'`);
      expect(rows[0]!.study_language).toBe("it");
      // A new browser without the cookie gets the saved language back on sign-in (past the one-a-minute link limit).
      await app.db.execute(sql`delete from rate_limit_events`);
      const again = await signedInBrowser(app, mail, "frank@example.com");
      expect(textOf((await again.page("/account/home")).html)).toContain("Italian");
      const bad = await frank.request("/preferences", {
        method: "POST",
        form: { intent: "studyLanguage", studyLanguage: "xx", redirectTo: "/account/home" },
      });
      expect(toastsIn((await frank.page(bad.headers.get("Location")!)).html)[0]?.[1]).toBe(
        "Choose a language from the list.",
      );
    });

    it("saves the learner's level, which preselects public lists", async () => {
      const gina = await signedInBrowser(app, mail, "gina@example.com");
      await gina.request("/preferences", {
        method: "POST",
        form: { intent: "level", level: "elementary", redirectTo: "/account/home" },
      });
      expect(textOf((await gina.page("/account/explore/public?language=fr")).html)).toContain("French · Elementary");
      const bad = await gina.request("/preferences", {
        method: "POST",
        form: { intent: "level", level: "guru", redirectTo: "/account/home" },
      });
      expect(toastsIn((await gina.page(bad.headers.get("Location")!)).html)[0]?.[1]).toBe(
        "Choose a level from the list.",
      );
    });
  });
}
