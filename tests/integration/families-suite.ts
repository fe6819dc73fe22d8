import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, signedInBrowser, startApp, textOf, toastsIn } from "../support/app";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

/** The stage class of each word link of a reader page, by the word as written. */
function wordsIn(html: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const m of html.matchAll(/<a id="w-\d+" href="[^"]*" class="word w-(\w+)"[^>]*>([^<]+)<\/a>/g))
    words.set(m[2]!, m[1]!);
  return words;
}
const wordNumber = (html: string, word: string) =>
  html.match(new RegExp(`<a id="w-(\\d+)" href="[^"]*" class="word [^"]*"[^>]*>${word}</a>`))![1]!;

/**
 * Word families (ADR 061), on whichever database `databaseEnv` configures: the reader's panel proposes a parent by stem, linking works as a plain form post
 * and takes the parent's meaning, the word shows its parent's stage, no chain or cycle can be made (by the app or by
 * SQL), deleting a parent leaves its forms unlinked, and a form's review also grades a due parent.
 */
export function defineFamiliesSuite(databaseName: string, databaseEnv: () => Promise<Record<string, string>>) {
  describe(`word families on ${databaseName}`, () => {
    let app: App;
    let mail: Awaited<ReturnType<typeof startMailSink>>;
    let alice: Browser;
    let bob: Browser;

    beforeAll(async () => {
      mail = await startMailSink();
      app = await startApp({ ...(await databaseEnv()), SMTP_URL: mail.url });
      alice = await signedInBrowser(app, mail, "family.alice@example.com");
      bob = await signedInBrowser(app, mail, "family.bob@example.com");
      for (const browser of [alice, bob])
        await browser.request("/preferences", {
          method: "POST",
          form: { intent: "studyLanguage", studyLanguage: "de", redirectTo: "/account/home" },
        });
    });
    afterAll(async () => {
      await app?.stop();
      await mail?.close();
    });

    async function addTerm(browser: Browser, text: string, meaning = "", stage?: string) {
      const response = await browser.request("/account/terms/new", {
        method: "POST",
        form: { text, meaning, partOfSpeech: "noun", notes: "", sentence: "", translation: "" },
      });
      expect(response.status, text).toBe(302);
      const id = response.headers.get("Location")!.split("/").at(-1)!;
      if (stage) await browser.request(`/account/terms/${id}`, { method: "POST", form: { intent: "stage", stage } });
      return id;
    }
    async function addText(browser: Browser, title: string, body: string) {
      const form = new FormData();
      form.append("title", title);
      form.append("body", body);
      const response = await browser.request("/account/texts/new", {
        method: "POST",
        body: form,
        headers: { Origin: APP_URL },
      });
      expect(response.status).toBe(302);
      return response.headers.get("Location")!.split("/").at(-1)!;
    }
    async function termRow(text: string, email = "family.alice@example.com") {
      const { rows } = await app.db.execute(
        sql`select t.id, t.meaning, t.parent_id, t.reps, t.due, t.state from terms t join users u on u.id = t.user_id where u.email = ${email} and t.text = ${text}`,
      );
      return rows[0] as {
        id: string;
        meaning: string;
        parent_id: string | null;
        reps: number;
        due: Date;
        state: number;
      };
    }

    it("proposes the parent of an inflected form, links it with a plain form post, and the form takes its meaning and stage", async () => {
      const hund = await addTerm(alice, "Hund", "dog", "learned");
      const id = await addText(alice, "Hunde", "Die Hunde bellen laut. Ein Hund schläft.");
      const reader = (await alice.page(`/account/texts/${id}`)).html;
      expect(wordsIn(reader).get("Hunde")).toBe("new");
      expect(wordsIn(reader).get("Hund")).toBe("learned");

      const word = wordNumber(reader, "Hunde");
      const panel = (await alice.page(`/account/texts/${id}?page=1&word=${word}`)).html;
      expect(panel).toMatch(/<button type="submit" value="Hund"[^>]*name="parent">Form of “Hund”<\/button>/);
      expect(textOf(panel)).toContain("A form of another word? Link it to its basic form:");
      expect(panel).toMatch(/name="sentence" value="Die Hunde bellen laut\."/);

      const linked = await alice.request(`/account/texts/${id}?page=1&word=${word}`, {
        method: "POST",
        form: {
          intent: "linkParent",
          page: "1",
          word,
          text: "Hunde",
          parent: "Hund",
          sentence: "Die Hunde bellen laut.",
        },
      });
      expect(linked.status).toBe(302);
      expect(linked.headers.get("Location")).toBe(`/account/texts/${id}?page=1&word=${word}#w-${word}`);
      const after = (await alice.page(linked.headers.get("Location")!)).html;
      expect(toastsIn(after)[0]).toEqual(["Forms linked", "“Hunde” is now a form of “Hund”."]);
      // The new form has no stage of its own yet: it shows its parent's.
      expect(wordsIn(after).get("Hunde")).toBe("learned");
      expect(textOf(after)).toContain("Form of Hund — dog");
      expect(after).toMatch(/name="intent" value="unlinkParent"/);
      const form = await termRow("Hunde");
      expect(form).toMatchObject({ parent_id: hund, meaning: "dog", state: 0 });

      // The parent's page lists its forms (plural keys), the form's page names its parent.
      const parentPage = textOf((await alice.page(`/account/terms/${hund}`)).html);
      expect(parentPage).toContain("Word family 1 form Hunde");
      const dePage = textOf((await alice.page(`/de/account/terms/${hund}`)).html);
      expect(dePage).toContain("Wortfamilie 1 Form Hunde");
      expect(textOf((await alice.page(`/account/terms/${form.id}`)).html)).toContain("Form of Hund — dog");

      // Once the form has a stage of its own, the word shows that one.
      await alice.request(`/account/terms/${form.id}`, {
        method: "POST",
        form: { intent: "stage", stage: "inprogress" },
      });
      expect(wordsIn((await alice.page(`/account/texts/${id}`)).html).get("Hunde")).toBe("inprogress");
    });

    it("proposes a dictionary's lemma for an irregular form no stemmer finds (ging → gehen)", async () => {
      await app.db.execute(sql`insert into dictionary_entries
        (source, from_language, to_language, headword, headword_key, lemma, lemma_key, glosses)
        values ('family-test', 'de', 'en', 'ging', 'ging', 'gehen', 'gehen', '["went"]'::jsonb),
               ('family-test', 'de', 'en', 'gehen', 'gehen', null, null, '["to go"]'::jsonb)`);
      try {
        const id = await addText(alice, "Ging", "Er ging nach Hause.");
        const reader = (await alice.page(`/account/texts/${id}`)).html;
        const panel = (await alice.page(`/account/texts/${id}?page=1&word=${wordNumber(reader, "ging")}`)).html;
        expect(panel).toMatch(/<button type="submit" value="gehen"[^>]*name="parent">Form of “gehen”<\/button>/);
      } finally {
        await app.db.execute(sql`delete from dictionary_entries where source = 'family-test'`);
      }
    });

    it("links on the term page too, to a proposed term or a typed basic form; a form keeps a meaning of its own", async () => {
      const katze = await addTerm(alice, "Katze", "cat");
      const katzen = await addTerm(alice, "Katzen", "cats (plural)");
      const page = (await alice.page(`/account/terms/${katzen}`)).html;
      expect(page).toMatch(/<button type="submit" value="Katze"[^>]*name="parent"[^>]*>Form of “Katze”<\/button>/);
      expect(page).toMatch(/<label for="parent">Basic form \(parent\)<\/label>/);
      const linked = await alice.request(`/account/terms/${katzen}`, {
        method: "POST",
        form: { intent: "linkParent", parent: "katze" },
      });
      expect(linked.status).toBe(302);
      expect(await termRow("Katzen")).toMatchObject({ parent_id: katze, meaning: "cats (plural)" });
      // A typed basic form that is not a term yet becomes one.
      const ging = await addTerm(alice, "ging");
      expect(
        (
          await alice.request(`/account/terms/${ging}`, {
            method: "POST",
            form: { intent: "linkParent", parent: "gehen" },
          })
        ).status,
      ).toBe(302);
      const gehen = await termRow("gehen");
      expect(gehen).toMatchObject({ parent_id: null, state: 0 });
      expect((await termRow("ging")).parent_id).toBe(gehen.id);
      // Unlinking makes it a term of its own again; its meaning stays.
      const unlinked = await alice.request(`/account/terms/${katzen}`, {
        method: "POST",
        form: { intent: "unlinkParent" },
      });
      expect(unlinked.status).toBe(302);
      expect(await termRow("Katzen")).toMatchObject({ parent_id: null, meaning: "cats (plural)" });
    });

    it("makes no chain and no cycle: a parent is never a form, a term never its own form; bad input is a 400", async () => {
      const hund = (await termRow("Hund")).id;
      const hunde = (await termRow("Hunde")).id;
      // A form named as parent stands for its own parent: "Hund" would become its own form.
      const self = await alice.request(`/account/terms/${hund}`, {
        method: "POST",
        form: { intent: "linkParent", parent: "Hunde" },
      });
      expect(self.status).toBe(409);
      expect(textOf(await self.text())).toContain("“Hund” cannot be a form of itself.");
      await addTerm(alice, "Tier", "animal");
      const parent = await alice.request(`/account/terms/${hund}`, {
        method: "POST",
        form: { intent: "linkParent", parent: "Tier" },
      });
      expect(parent.status).toBe(409);
      expect(textOf(await parent.text())).toContain(
        "“Hund” has forms of its own, so it cannot be a form of another term.",
      );
      const german = await alice.request(`/de/account/terms/${hund}`, {
        method: "POST",
        form: { intent: "linkParent", parent: "Tier" },
      });
      expect(textOf(await german.text())).toContain("„Hund“ hat eigene Formen");
      const empty = await alice.request(`/account/terms/${(await termRow("Tier")).id}`, {
        method: "POST",
        form: { intent: "linkParent", parent: " " },
      });
      expect(empty.status).toBe(400);
      expect(textOf(await empty.text())).toContain("Write the basic form of the word.");
      expect((await termRow("Hund")).parent_id).toBeNull();

      // The database holds the same rules whoever writes: no chain, no other learner's or language's parent.
      const tier = (await termRow("Tier")).id;
      await expect(app.db.execute(sql`update terms set parent_id = ${tier} where id = ${hund}`)).rejects.toThrow();
      await expect(app.db.execute(sql`update terms set parent_id = ${hunde} where id = ${tier}`)).rejects.toThrow();
      await expect(app.db.execute(sql`update terms set parent_id = ${tier} where id = ${tier}`)).rejects.toThrow();
      const bobs = await addTerm(bob, "Vogel", "bird");
      await expect(app.db.execute(sql`update terms set parent_id = ${tier} where id = ${bobs}`)).rejects.toThrow();
      // Another learner's term is a 404, as everywhere.
      const foreign = await bob.request(`/account/terms/${hund}`, {
        method: "POST",
        form: { intent: "linkParent", parent: "Vogel" },
      });
      expect(foreign.status).toBe(404);
      // An unknown reader intent field set: a 400 with the message, never a 500.
      const text = await addText(alice, "Kurz", "Hunde.");
      const noWord = await alice.request(`/account/texts/${text}`, {
        method: "POST",
        form: { intent: "linkParent", page: "1", word: "0", text: "", parent: "Hund" },
      });
      expect(noWord.status).toBe(400);
    });

    it("reviewing a form also grades its parent when the parent is due, not when it is not, and logs only the form", async () => {
      const haus = await addTerm(alice, "Haus", "house", "needsreview");
      const hauser = await addTerm(alice, "Häuser");
      await alice.request(`/account/terms/${hauser}`, {
        method: "POST",
        form: { intent: "linkParent", parent: "Haus" },
      });
      const before = await termRow("Haus");
      expect(new Date(before.due).getTime()).toBeLessThanOrEqual(Date.now());
      const graded = await alice.request("/account/review", {
        method: "POST",
        form: { termId: hauser, grade: "good" },
      });
      expect(graded.status).toBe(303);
      const parent = await termRow("Haus");
      expect(parent.reps).toBe(before.reps + 1);
      expect(new Date(parent.due).getTime()).toBeGreaterThan(Date.now());
      const logs = async (id: string) =>
        Number(
          (await app.db.execute(sql`select count(*)::int as n from review_logs where term_id = ${id}`)).rows[0]!.n,
        );
      expect(await logs(hauser)).toBe(1);
      expect(await logs(haus)).toBe(0);

      // A parent not due keeps its schedule.
      const maus = await addTerm(alice, "Maus", "mouse", "learned");
      const mause = await addTerm(alice, "Mäuse");
      await alice.request(`/account/terms/${mause}`, {
        method: "POST",
        form: { intent: "linkParent", parent: "Maus" },
      });
      const learned = await termRow("Maus");
      await alice.request("/account/review", { method: "POST", form: { termId: mause, grade: "again" } });
      expect(await termRow("Maus")).toMatchObject({ reps: learned.reps, due: learned.due });
      expect(maus).toBe(learned.id);
    });

    it("deleting a parent leaves its forms as terms of their own, with their meaning", async () => {
      const hund = (await termRow("Hund")).id;
      const deleted = await alice.request(`/account/terms/${hund}`, { method: "POST", form: { intent: "delete" } });
      expect(deleted.status).toBe(302);
      expect(await termRow("Hunde")).toMatchObject({ parent_id: null, meaning: "dog" });
    });
  });
}
