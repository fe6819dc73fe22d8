import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, signedInBrowser, startApp, textOf, toastsIn } from "../support/app";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

const STORY = "I ate ice cream in the park. The park was quiet.\n\nThen it rained, and the ice cream melted.";

/** The visible text of a page body: React's text separators dropped, tags as spaces. */
const plain = (html: string) =>
  textOf(
    html
      .replace(/<!-- -->/g, "")
      .replace(/^[\s\S]*<body[^>]*>/, "")
      .replace(/<style[\s\S]*?<\/style>/g, ""),
  );

/** The classes of the word links of a reader page: `text → stage`, the text lower-cased unless `asWritten`. */
function wordsIn(html: string, asWritten = false): Map<string, string> {
  const words = new Map<string, string>();
  for (const m of html.matchAll(/<a id="w-\d+" href="[^"]*" class="word w-(\w+)"[^>]*>(.*?)<\/a>/g)) {
    // A word's readings (furigana, pinyin) are not part of it.
    const text = m[2]!.replace(/<rt>.*?<\/rt>|<\/?ruby>|<!-- -->/g, "").replaceAll("&#x27;", "'");
    words.set(asWritten ? text : text.toLowerCase(), m[1]!);
  }
  return words;
}
const hrefOf = (html: string, word: string) =>
  html.match(new RegExp(`<a id="w-(\\d+)" href="[^"]*" class="word [^"]*"[^>]*>${word}</a>`))?.[1];

/** The reader, run against whichever database `databaseEnv` configures. */
export function defineReadingSuite(databaseName: string, databaseEnv: () => Promise<Record<string, string>>) {
  describe(`the reader on ${databaseName}`, () => {
    let app: App;
    let mail: Awaited<ReturnType<typeof startMailSink>>;
    let alice: Browser;
    let bob: Browser;

    beforeAll(async () => {
      mail = await startMailSink();
      app = await startApp({ ...(await databaseEnv()), SMTP_URL: mail.url });
      alice = await signedInBrowser(app, mail, "reader.alice@example.com");
      bob = await signedInBrowser(app, mail, "reader.bob@example.com");
    });
    afterAll(async () => {
      await app?.stop();
      await mail?.close();
    });

    /** A multipart form POST as a browser sends it (a pasted text is not URL-encoded). */
    function postParts(browser: Browser, path: string, fields: Record<string, string | Blob>, fileName = "text.txt") {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields))
        if (typeof value === "string") body.append(name, value);
        else body.append(name, value, fileName);
      return browser.request(path, { method: "POST", body, headers: { Origin: APP_URL } });
    }
    async function addText(browser: Browser, title: string, text: string) {
      const response = await postParts(browser, "/account/texts/new", { title, body: text });
      expect(response.status).toBe(302);
      return response.headers.get("Location")!.split("/").at(-1)!;
    }

    it("adds a pasted text and shows every word as new, with the text's statistics", async () => {
      const id = await addText(alice, "In the park", STORY);
      const { html } = await alice.page(`/account/texts/${id}`);
      expect(toastsIn(html)[0]?.[0]).toBe("Text added");
      const words = wordsIn(html);
      expect([...words.keys()]).toEqual([
        "i",
        "ate",
        "ice",
        "cream",
        "in",
        "the",
        "park",
        "was",
        "quiet",
        "then",
        "it",
        "rained",
        "and",
        "melted",
      ]);
      expect(new Set(words.values())).toEqual(new Set(["new"]));
      expect(plain(html)).toContain("19 words · 19 unknown (100%) · 0 known (0%)");
      const list = plain((await alice.page("/account/texts")).html);
      expect(list).toContain("In the park 19 19 (100%) 0 (0%)");
    });

    it("answers another learner's text like a missing one: 404 on GET and on POST; a malformed id is a 404 too", async () => {
      const id = await addText(alice, "Private", "Only mine.");
      expect((await bob.page(`/account/texts/${id}`)).response.status).toBe(404);
      const post = await bob.request(`/account/texts/${id}`, { method: "POST", form: { intent: "delete" } });
      expect(post.status).toBe(404);
      expect((await alice.page(`/account/texts/${id}`)).response.status).toBe(200);
      expect((await alice.page("/account/texts/not-an-id")).response.status).toBe(404);
      expect(plain((await bob.page("/account/texts")).html)).not.toContain("Private");
    });

    it("opens a word's panel with the add-term form and its sentence; the new term gives the word its stage", async () => {
      const id = await addText(alice, "Panel", STORY);
      const page = (await alice.page(`/account/texts/${id}`)).html;
      const quiet = hrefOf(page, "quiet")!;
      const { html } = await alice.page(`/account/texts/${id}?page=1&word=${quiet}`);
      expect(html).toMatch(/<input id="text"[^>]*name="text" value="quiet"/);
      expect(html).toMatch(/<input id="sentence"[^>]*name="sentence" value="The park was quiet."/);
      const added = await alice.request(`/account/texts/${id}?page=1&word=${quiet}`, {
        method: "POST",
        form: {
          intent: "addTerm",
          page: "1",
          word: quiet,
          text: "quiet",
          meaning: "calm",
          partOfSpeech: "adjective",
          notes: "",
          sentence: "The park was quiet.",
          translation: "",
        },
      });
      expect(added.status).toBe(302);
      expect(added.headers.get("Location")).toBe(`/account/texts/${id}?page=1&word=${quiet}#w-${quiet}`);
      const after = (await alice.page(added.headers.get("Location")!)).html;
      expect(wordsIn(after).get("quiet")).toBe("tolearn");
      const { rows } = await app.db.execute(
        sql`select e.sentence from terms t join term_examples e on e.term_id = t.id where t.text = 'quiet'`,
      );
      expect(rows).toEqual([{ sentence: "The park was quiet." }]);
      // The panel now shows the term and its four stages; "learned" makes the word known.
      const termId = after.match(/name="termId" value="([^"]+)"/)![1]!;
      const staged = await alice.request(`/account/texts/${id}`, {
        method: "POST",
        form: { intent: "stage", termId, stage: "learned", page: "1", word: quiet },
      });
      expect(staged.status).toBe(302);
      const learned = (await alice.page(`/account/texts/${id}`)).html;
      expect(wordsIn(learned).get("quiet")).toBe("learned");
      expect(plain(learned)).toContain("19 words · 18 unknown (95%) · 1 known (5%)");
      // The same word twice in one language is refused with 409, in the panel.
      const twice = await alice.request(`/account/texts/${id}?page=1&word=${quiet}`, {
        method: "POST",
        form: { intent: "addTerm", page: "1", word: quiet, text: "Quiet", partOfSpeech: "adjective" },
      });
      expect(twice.status).toBe(409);
    });

    it("recognises a multi-word term as one unit, case-insensitively", async () => {
      await alice.request("/account/terms/new", {
        method: "POST",
        form: { text: "Ice Cream", meaning: "", partOfSpeech: "noun", notes: "", sentence: "", translation: "" },
      });
      const id = await addText(alice, "Dessert", "The ice cream melted. Ice is cold, cream is sweet.");
      const { html } = await alice.page(`/account/texts/${id}`);
      expect(html).toMatch(/class="word w-tolearn"[^>]*>ice cream<\/a>/);
      expect(wordsIn(html).get("ice")).toBe("new");
    });

    it("recognises a word alone from a term stored with its article, and adds a word with its meaning alone", async () => {
      const greta = await signedInBrowser(app, mail, "reader.greta@example.com");
      await greta.request("/preferences", {
        method: "POST",
        form: { intent: "studyLanguage", studyLanguage: "de", redirectTo: "/account/texts" },
      });
      await greta.request("/account/terms/new", { method: "POST", form: { text: "der Hund", meaning: "dog" } });
      const id = await addText(greta, "Hunde", "Ein Hund bellt. Die Katze schläft.");
      const html = (await greta.page(`/account/texts/${id}`)).html;
      expect(wordsIn(html).get("hund")).toBe("tolearn");
      expect(wordsIn(html).get("katze")).toBe("new");
      // A new word with its meaning alone: no part of speech, notes or example needed.
      const katze = hrefOf(html, "Katze")!;
      const added = await greta.request(`/account/texts/${id}?page=1&word=${katze}`, {
        method: "POST",
        form: { intent: "addTerm", page: "1", word: katze, text: "Katze", meaning: "cat" },
      });
      expect(added.status).toBe(302);
      expect(wordsIn((await greta.page(`/account/texts/${id}`)).html).get("katze")).toBe("tolearn");
    });

    it("adds a term with one press on a meaning, and its undo takes back exactly that: a known word is known again", async () => {
      const ivo = await signedInBrowser(app, mail, "reader.ivo@example.com");
      const id = await addText(ivo, "Quiet park", STORY);
      const quiet = hrefOf((await ivo.page(`/account/texts/${id}`)).html, "quiet")!;
      const at = `/account/texts/${id}?page=1&word=${quiet}`;
      await ivo.request(at, { method: "POST", form: { intent: "ignore", page: "1", word: quiet, text: "quiet" } });
      const learner = sql`(select id from users where email = 'reader.ivo@example.com')`;
      const known = async () =>
        (await app.db.execute(sql`select word from ignored_words where user_id = ${learner} and word = 'quiet'`)).rows;
      expect(await known()).toHaveLength(1);
      // The meaning's button: its part of speech and gloss over the (empty) typed meaning; the sentence as the example.
      const added = await ivo.request(at, {
        method: "POST",
        form: {
          intent: "addTerm",
          page: "1",
          word: quiet,
          text: "quiet",
          reading: "",
          sentence: "The park was quiet.",
          choice: "adjective|calm",
        },
      });
      expect(added.status).toBe(302);
      expect(added.headers.get("Location")).toBe(`${at}#w-${quiet}`);
      const { rows } = await app.db.execute(
        sql`select t.id, t.meaning, t.part_of_speech as pos, e.sentence from terms t
          join term_examples e on e.term_id = t.id where t.user_id = ${learner}`,
      );
      expect(rows).toMatchObject([{ meaning: "calm", pos: "adjective", sentence: "The park was quiet." }]);
      expect(await known()).toHaveLength(0);
      const termId = (rows[0] as { id: string }).id;
      // The toast's undo (a POST form): the term goes, the word is known again; a second undo changes nothing.
      const undo = { intent: "undoAdd", termId, page: "1", word: quiet, known: "1" };
      const undone = await ivo.request(`/account/texts/${id}`, { method: "POST", form: undo });
      expect(undone.status).toBe(302);
      expect(undone.headers.get("Location")).toBe(`${at}#w-${quiet}`);
      expect((await app.db.execute(sql`select id from terms where user_id = ${learner}`)).rows).toEqual([]);
      expect(await known()).toHaveLength(1);
      const again = await ivo.request(`/account/texts/${id}`, { method: "POST", form: undo });
      expect(again.status).toBe(302);
      // Not a term id: refused with the translated message, nothing changes.
      const bad = await ivo.request(`/account/texts/${id}`, { method: "POST", form: { ...undo, termId: "nope" } });
      expect(bad.status).toBe(400);
      expect(plain(await bad.text())).toContain("That action is not available here.");
      expect(await known()).toHaveLength(1);
    });

    it("marks the rest of a page as known in one go: known words, no terms, no cards, and undoes exactly that", async () => {
      const hugo = await signedInBrowser(app, mail, "reader.hugo@example.com");
      await hugo.request("/account/terms/new", { method: "POST", form: { text: "beta", meaning: "second" } });
      const id = await addText(hugo, "Letters", "Alpha beta gamma. Beta delta, alpha!");
      const learner = sql`(select id from users where email = 'reader.hugo@example.com')`;
      const daily = async () =>
        (
          await app.db.execute(sql`select (select count(*)::int from terms where user_id = ${learner}) as terms,
            (select count(*)::int from review_logs where user_id = ${learner}) as reviews,
            (select coalesce(sum(graded), 0)::int from learner_language_days where user_id = ${learner}) as graded,
            (select coalesce(sum(new_terms), 0)::int from learner_days where user_id = ${learner}) as added`)
        ).rows[0];
      const before = await daily();
      const dueBefore = textOf((await hugo.page("/account/home")).html).match(/\d+ terms? to review now/)?.[0];
      const marked = await hugo.request(`/account/texts/${id}`, {
        method: "POST",
        form: { intent: "markKnown", page: "1" },
      });
      expect(marked.status).toBe(302);
      const location = marked.headers.get("Location")!;
      expect(location).toMatch(new RegExp(`^/account/texts/${id}\\?page=1&known=\\d+$`));
      const page = await hugo.page(location);
      expect(toastsIn(page.html)).toContainEqual(["Marked as known", "3 words are now known."]);
      expect(Object.fromEntries(wordsIn(page.html))).toEqual({
        alpha: "ignored",
        beta: "tolearn",
        gamma: "ignored",
        delta: "ignored",
      });
      // Known words are no terms: no card, no review, nothing added to the day's terms or to the daily limits.
      expect(await daily()).toEqual(before);
      expect(textOf((await hugo.page("/account/home")).html).match(/\d+ terms? to review now/)?.[0]).toBe(dueBefore);
      const { rows } = await app.db.execute(
        sql`select word from ignored_words where user_id = ${learner} order by word`,
      );
      expect(rows).toEqual([{ word: "alpha" }, { word: "delta" }, { word: "gamma" }]);
      const batch = page.html.match(/name="batch" value="(\d+)"/)![1]!;
      const undone = await hugo.request(`/account/texts/${id}`, {
        method: "POST",
        form: { intent: "undoKnown", page: "1", batch },
      });
      expect(undone.status).toBe(302);
      const back = await hugo.page(undone.headers.get("Location")!);
      expect(toastsIn(back.html)).toContainEqual(["Undone", "3 words are new again."]);
      expect(Object.fromEntries(wordsIn(back.html))).toEqual({
        alpha: "new",
        beta: "tolearn",
        gamma: "new",
        delta: "new",
      });
      // The word panel links the word in a dictionary: English Wiktionary by default, the learner's own template after.
      const alpha = hrefOf(back.html, "Alpha")!;
      const panel = (await hugo.page(`/account/texts/${id}?page=1&word=${alpha}`)).html;
      expect(panel).toContain(
        'href="https://en.wiktionary.org/wiki/Alpha#English" target="_blank" rel="noopener noreferrer"',
      );
      const refused = await hugo.request("/account/settings", {
        method: "POST",
        form: { intent: "dictionary", dictionary: "http://example.com/{word}" },
      });
      expect(refused.status).toBe(400);
      expect(textOf(await refused.text())).toContain("Enter an https address with {word} in it");
      const saved = await hugo.request("/account/settings", {
        method: "POST",
        form: { intent: "dictionary", dictionary: "https://www.merriam-webster.com/dictionary/{word}" },
      });
      expect(saved.status).toBe(302);
      expect((await hugo.page(`/account/texts/${id}?page=1&word=${alpha}`)).html).toContain(
        'href="https://www.merriam-webster.com/dictionary/Alpha"',
      );
      const bad = await hugo.request(`/account/texts/${id}`, {
        method: "POST",
        form: { intent: "undoKnown", batch: "x" },
      });
      expect(bad.status).toBe(400);
    });

    it("matches words by the rules of the text's language: Turkish dotted and dotless i, a Chinese text", async () => {
      const deniz = await signedInBrowser(app, mail, "reader.deniz@example.com");
      const study = (language: string) =>
        deniz.request("/preferences", {
          method: "POST",
          form: { intent: "studyLanguage", studyLanguage: language, redirectTo: "/account/texts" },
        });
      await study("tr");
      for (const text of ["IŞIK", "istanbul", "çok güzel"])
        await deniz.request("/account/terms/new", { method: "POST", form: { text, partOfSpeech: "noun" } });
      const id = await addText(deniz, "Işık", "Işık İstanbul'da ÇOK GÜZEL. Isırgan ılık.");
      const words = wordsIn((await deniz.page(`/account/texts/${id}`)).html, true);
      expect(Object.fromEntries(words)).toEqual({
        Işık: "tolearn",
        "İstanbul'da": "new",
        "ÇOK GÜZEL": "tolearn",
        Isırgan: "new",
        ılık: "new",
      });
      await study("zh");
      await deniz.request("/account/terms/new", { method: "POST", form: { text: "冰淇淋", partOfSpeech: "noun" } });
      const zh = await addText(deniz, "冰淇淋", "我喜欢吃冰淇淋。");
      const zhPage = (await deniz.page(`/account/texts/${zh}`)).html;
      // Cut into words by jieba, each with its pinyin.
      expect(Object.fromEntries(wordsIn(zhPage))).toEqual({
        我: "new",
        喜欢: "new",
        吃: "new",
        冰淇淋: "tolearn",
      });
      expect(zhPage).toContain("<ruby>喜<rt>xǐ</rt>欢<rt>huan</rt></ruby>");
    });

    it("ignores a word so it counts as known and is no longer highlighted, and highlights it again", async () => {
      const id = await addText(alice, "Ignore", "Tomorrow we travel. Tomorrow we rest.");
      const tomorrow = hrefOf((await alice.page(`/account/texts/${id}`)).html, "Tomorrow")!;
      const ignored = await alice.request(`/account/texts/${id}`, {
        method: "POST",
        form: { intent: "ignore", text: "Tomorrow", page: "1", word: tomorrow },
      });
      expect(ignored.status).toBe(302);
      let html = (await alice.page(`/account/texts/${id}`)).html;
      expect(wordsIn(html).get("tomorrow")).toBe("ignored");
      expect(plain(html)).toContain("6 words · 4 unknown (67%) · 2 known (33%)");
      const { rows } = await app.db.execute(sql`select word from ignored_words where word = 'tomorrow'`);
      expect(rows).toEqual([{ word: "tomorrow" }]);
      await alice.request(`/account/texts/${id}`, {
        method: "POST",
        form: { intent: "unignore", text: "Tomorrow", page: "1", word: tomorrow },
      });
      html = (await alice.page(`/account/texts/${id}`)).html;
      expect(wordsIn(html).get("tomorrow")).toBe("new");
      // A known word the learner later wants to learn becomes a term from its panel, and is no longer a known word.
      const travel = hrefOf(html, "travel")!;
      await alice.request(`/account/texts/${id}`, {
        method: "POST",
        form: { intent: "ignore", text: "travel", page: "1", word: travel },
      });
      expect(wordsIn((await alice.page(`/account/texts/${id}`)).html).get("travel")).toBe("ignored");
      const added = await alice.request(`/account/texts/${id}`, {
        method: "POST",
        form: { intent: "addTerm", page: "1", word: travel, text: "travel", meaning: "reisen" },
      });
      expect(added.status).toBe(302);
      expect(wordsIn((await alice.page(`/account/texts/${id}`)).html).get("travel")).toBe("tolearn");
      const known = await app.db.execute(sql`select word from ignored_words where word = 'travel'`);
      expect(known.rows).toEqual([]);
    });

    it("sorts the texts list by the share of known words", async () => {
      const easy = await addText(bob, "Easy one", "Hello hello hello world.");
      await addText(bob, "Hard one", "Unfamiliar vocabulary everywhere here.");
      await bob.request(`/account/texts/${easy}`, {
        method: "POST",
        form: { intent: "ignore", text: "hello", page: "1", word: "0" },
      });
      const list = plain((await bob.page("/account/texts")).html);
      expect(list.indexOf("Easy one")).toBeLessThan(list.indexOf("Hard one"));
      expect(list).toContain("Easy one 4 1 (25%) 3 (75%)");
    });

    it("takes a .txt upload in UTF-8 and refuses other files, bad encodings and long texts with clear 4xx messages", async () => {
      const ok = await postParts(alice, "/account/texts/new", {
        title: "Upload",
        body: "",
        file: new Blob(["\uFEFFGrüße aus Köln."], { type: "text/plain" }),
      });
      expect(ok.status).toBe(302);
      const uploaded = wordsIn((await alice.page(ok.headers.get("Location")!)).html);
      expect([...uploaded.keys()]).toEqual(["grüße", "aus", "köln"]);

      const latin1 = await postParts(alice, "/account/texts/new", {
        title: "Bad",
        body: "",
        file: new Blob([new Uint8Array([0x47, 0x72, 0xfc, 0xdf, 0x65])], { type: "text/plain" }),
      });
      expect(latin1.status).toBe(400);
      expect(plain(await latin1.text())).toContain("The file is not valid UTF-8 text");

      const pdf = await postParts(
        alice,
        "/account/texts/new",
        { title: "Pdf", body: "", file: new Blob(["%PDF-1.7"], { type: "application/pdf" }) },
        "paper.pdf",
      );
      expect(pdf.status).toBe(415);
      expect(plain(await pdf.text())).toContain("Only .txt files (plain text) can be uploaded.");

      const long = await postParts(alice, "/account/texts/new", {
        title: "Long",
        body: "",
        file: new Blob(["a".repeat(50_001)], { type: "text/plain" }),
      });
      expect(long.status).toBe(413);
      expect(plain(await long.text())).toContain("The text is too long: at most 50,000 bytes.");
      const pasted = await postParts(alice, "/account/texts/new", { title: "Long", body: "é".repeat(25_001) });
      expect(pasted.status).toBe(413);

      const huge = await postParts(alice, "/account/texts/new", { title: "Huge", body: "a".repeat(70_000) });
      expect(huge.status).toBe(413);

      const empty = await postParts(alice, "/de/account/texts/new", { title: "", body: " " });
      expect(empty.status).toBe(400);
      const message = plain(await empty.text());
      expect(message).toContain("Gib einen Titel ein.");
      expect(message).toContain("Füge einen Text ein oder wähle eine .txt-Datei.");
    });

    it("pages a long text at about 500 words and edits and deletes a text", async () => {
      const sentence = "One two three four five six seven eight nine ten. ";
      const id = await addText(alice, "Long read", sentence.repeat(120));
      const first = (await alice.page(`/account/texts/${id}`)).html;
      expect(plain(first)).toContain("Page 1 of 3");
      expect(wordsIn(first).size).toBe(10);
      const second = (await alice.page(`/account/texts/${id}?page=2`)).html;
      expect(second).toContain('id="w-500"');
      expect(second).not.toContain('id="w-499"');
      expect((await alice.page(`/account/texts/${id}?page=9`)).response.status).toBe(200);

      const edited = await postParts(alice, `/account/texts/${id}`, {
        intent: "update",
        title: "Short read",
        body: "Just this.",
      });
      expect(edited.status).toBe(302);
      expect(plain((await alice.page(`/account/texts/${id}`)).html)).toContain("Short read");
      const deleted = await alice.request(`/account/texts/${id}`, { method: "POST", form: { intent: "delete" } });
      expect(deleted.headers.get("Location")).toBe("/account/texts");
      expect((await alice.page(`/account/texts/${id}`)).response.status).toBe(404);
    });

    it("refuses an unknown intent, a bad stage and an empty word with 400", async () => {
      const id = await addText(alice, "Checks", "Words here.");
      const forms: Record<string, string>[] = [
        { intent: "shout" },
        { intent: "stage", stage: "expert", termId: "x" },
        { intent: "ignore", text: "" },
      ];
      for (const form of forms) {
        const response = await alice.request(`/account/texts/${id}`, { method: "POST", form });
        expect(response.status).toBe(400);
      }
    });

    it("shows the shipped sample texts to signed-out visitors and copies one into a learner's texts", async () => {
      const visitor = app.browser();
      const list = await visitor.page("/texts");
      expect(list.response.status).toBe(200);
      for (const title of ["Der verspätete Zug", "My street", "Mi familia", "Au café", "La mia casa"])
        expect(plain(list.html)).toContain(title);
      const sample = await visitor.page("/texts/en-my-street");
      expect(sample.html).toContain('<span class="word w-new">river</span>');
      expect((await visitor.page("/texts/missing")).response.status).toBe(404);
      const signedOut = await visitor.request("/texts/en-my-street", { method: "POST", form: {} });
      expect(signedOut.headers.get("Location")).toBe("/form");
      const copied = await bob.request("/texts/en-my-street", { method: "POST", form: {} });
      expect(copied.status).toBe(302);
      expect(plain((await bob.page(copied.headers.get("Location")!)).html)).toContain("My street");
    });

    it("deletes a learner's texts, known words and their days with the learner", async () => {
      const carol = await signedInBrowser(app, mail, "reader.carol@example.com");
      const id = await addText(carol, "Gone", "Soon gone.");
      await carol.request(`/account/texts/${id}`, {
        method: "POST",
        form: { intent: "ignore", text: "soon", word: "0" },
      });
      const { rows: carolRows } = await app.db.execute(
        sql`select id from users where email = 'reader.carol@example.com'`,
      );
      const carolId = (carolRows[0] as { id: string }).id;
      await app.db.execute(sql`delete from users where email = 'reader.carol@example.com'`);
      const { rows } = await app.db.execute(
        sql`select (select count(*)::int from texts where id = ${id}) as texts, (select count(*)::int from ignored_words where word = 'soon') as ignored,
          (select count(*)::int from known_days where user_id = ${carolId}) as known_days`,
      );
      // The known words and their per-day counts go with the learner (ADR 105).
      expect(rows).toEqual([{ texts: 0, ignored: 0, known_days: 0 }]);
    });
  });
}
