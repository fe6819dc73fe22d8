import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/db/open.server";
import { LEVELS } from "../../app/learning/vocabulary";
import { signedInBrowser, startApp, textOf } from "../support/app";
import { startMailSink } from "../support/mail-sink";
import { tempDir } from "../support/temp.ts";

type App = Awaited<ReturnType<typeof startApp>>;
type ShippedTerm = { text: string; meaning: Record<string, string>; example: { translation: Record<string, string> } };

const root = path.resolve(import.meta.dirname, "../..");
const shipped = (file: string) =>
  JSON.parse(readFileSync(path.join(root, "app/learning/public-lists", file), "utf8")) as { terms: ShippedTerm[] };

/** The migrations up to 0001, before public terms had texts per locale. */
function migrationsBeforeLocales(): string {
  const folder = tempDir("migrations");
  mkdirSync(path.join(folder, "meta"));
  const journal = JSON.parse(readFileSync(path.join(root, "drizzle/meta/_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  journal.entries = journal.entries.slice(0, 2);
  for (const { tag } of journal.entries)
    cpSync(path.join(root, "drizzle", `${tag}.sql`), path.join(folder, `${tag}.sql`));
  writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify(journal));
  return folder;
}

/**
 * Public lists in every interface language, on a database that held the lists of the old files (one English meaning,
 * one example translation): the database `prepare` opens is migrated to 0001 and filled the old way, then the app
 * starts on it.
 */
export function definePublicListsSuite(
  databaseName: string,
  prepare: () => Promise<{ env: Record<string, string>; dataDir: string; cleanup: () => void }>,
) {
  describe(`public lists per interface language on ${databaseName}`, () => {
    let app: App;
    let mail: Awaited<ReturnType<typeof startMailSink>>;
    let cleanup = () => {};
    const firstGerman = shipped("de-beginner.json").terms[0]!;

    beforeAll(async () => {
      const prepared = await prepare();
      cleanup = prepared.cleanup;
      const migrations = migrationsBeforeLocales();
      try {
        const old = await openDatabase({
          databaseUrl: prepared.env.DATABASE_URL,
          dataDir: prepared.dataDir,
          migrationsFolder: migrations,
        });
        await old.db.execute(sql`insert into public_terms
          (language, level, text, meaning, part_of_speech, example_sentence, example_translation, position) values
          ('de', 'beginner', ${firstGerman.text}, 'an old gloss', 'noun', 'Ein alter Satz.', 'An old sentence.', 0),
          ('de', 'beginner', 'der Altbau', 'old building', 'noun', 'Der Altbau ist schön.', 'It is beautiful.', 99)`);
        await old.close();
      } finally {
        rmSync(migrations, { recursive: true, force: true });
      }
      mail = await startMailSink();
      app = await startApp({ ...prepared.env, SMTP_URL: mail.url });
    });
    afterAll(async () => {
      await app?.stop();
      await mail?.close();
      cleanup();
    });

    it("upgrades rows loaded from the old files to the new texts per locale, and drops terms no file holds", async () => {
      const { rows } = await app.db.execute(
        sql`select text, meanings from public_terms where language = 'de' and level = 'beginner' order by position`,
      );
      expect(rows).toHaveLength(shipped("de-beginner.json").terms.length);
      expect(rows[0]).toEqual({ text: firstGerman.text, meanings: firstGerman.meaning });
      expect(rows.map((row) => row.text)).not.toContain("der Altbau");
    });

    it("shows each visitor the gloss and example translation in their interface language, else English", async () => {
      await app.db.execute(sql`update public_terms
        set meanings = '{"en": "gloss-en", "de": "Glosse-de"}', example_translations = '{"en": "example-en", "de": "Beispiel-de"}'
        where language = 'fr' and level = 'beginner' and position = 0`);
      app.invalidatePublicPages();
      const visitor = app.browser();
      const german = textOf((await visitor.page("/de/explore?language=fr&level=beginner")).html);
      expect(german).toContain("Glosse-de");
      expect(german).toContain("Beispiel-de");
      expect(german).not.toContain("gloss-en");
      const english = textOf((await visitor.page("/explore?language=fr&level=beginner")).html);
      expect(english).toContain("gloss-en");
      expect(english).toContain("example-en");
      const turkish = textOf((await visitor.page("/tr/explore?language=fr&level=beginner")).html);
      expect(turkish).toContain("gloss-en");
    });

    it("shows a shipped list's example in each visitor's interface language, not the English fallback", async () => {
      const first = shipped("ja-beginner.json").terms[0]!;
      for (const locale of ["de", "es", "fr", "tr", "uk", "zh"]) {
        const page = textOf((await app.browser().page(`/${locale}/explore?language=ja&level=beginner`)).html);
        expect(page, locale).toContain(first.example.translation[locale]);
        expect(page, locale).not.toContain(first.example.translation.en);
      }
    });

    it("shows no example translation to a visitor whose interface speaks the list's language", async () => {
      const list = shipped("de-beginner.json").terms;
      const german = textOf((await app.browser().page("/de/explore?language=de&level=beginner")).html);
      expect(german).toContain(list[1]!.meaning.de);
      expect(german).not.toContain(list[1]!.example.translation.en);
      const english = textOf((await app.browser().page("/explore?language=de&level=beginner")).html);
      expect(english).toContain(list[1]!.example.translation.en);
    });

    it("copies the meaning and example translation in the learner's interface language when a list is added", async () => {
      const learner = await signedInBrowser(app, mail, "lists@example.com");
      const { rows } = await app.db.execute(
        sql`select id, position from public_terms where language = 'fr' and level = 'beginner' and position < 2 order by position`,
      );
      await app.db.execute(sql`update public_terms
        set meanings = '{"en": "second-en", "uk": "друге-uk"}', example_translations = '{"uk": "приклад-uk"}'
        where id = ${String(rows[1]!.id)}`);
      app.invalidatePublicPages();
      for (const [locale, row] of [
        ["de", rows[0]!],
        ["uk", rows[1]!],
      ] as const) {
        const response = await learner.request(`/${locale}/account/explore/public`, {
          method: "POST",
          form: { intent: "add", termId: String(row.id), language: "fr", level: "beginner" },
        });
        expect(response.status).toBe(302);
      }
      const { rows: added } = await app.db.execute(sql`select t.meaning, e.translation from terms t
        join users u on u.id = t.user_id join term_examples e on e.term_id = t.id
        where u.email = 'lists@example.com' order by t.meaning`);
      expect(added).toEqual([
        { meaning: "Glosse-de", translation: "Beispiel-de" },
        { meaning: "друге-uk", translation: "приклад-uk" },
      ]);
    });

    it("sends an anonymous visitor no term ids, and a signed-in learner one per term to add", async () => {
      const { rows } = await app.db.execute(
        sql`select id from public_terms where language = 'es' and level = 'advanced' order by position`,
      );
      const ids = rows.map((row) => String(row.id));
      expect(ids.length).toBeGreaterThan(0);
      const anonymous = (await app.browser().page("/de/explore?language=es&level=advanced")).html;
      for (const id of ids) expect(anonymous).not.toContain(id);
      const learner = await signedInBrowser(app, mail, "ids@example.com");
      const signedIn = (await learner.page("/de/explore?language=es&level=advanced")).html;
      for (const id of ids) expect(signedIn).toContain(`name="termId" value="${id}"`);
    });

    it("offers in the level filter exactly the levels that have lists", async () => {
      const { rows } = await app.db.execute(sql`select distinct level from public_terms`);
      const present = new Set(rows.map((row) => String(row.level)));
      const { html } = await app.browser().page("/explore?language=de&level=beginner");
      const select = html.match(/<select id="public-level"[\s\S]*?<\/select>/)![0];
      const offered = [...select.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
      expect(offered).toEqual(LEVELS.filter((level) => present.has(level)));
    });
  });
}
