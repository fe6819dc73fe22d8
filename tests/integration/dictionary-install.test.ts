/**
 * `npm run dict:install` (scripts/dict-install.ts): loads FreeDict's dictd dictionaries as Debian installs them and the
 * inflected forms of Debian's Hunspell dictionaries, on the embedded database and on PostgreSQL (the latter while the
 * app serves); a second run skips what is unchanged; a malformed or truncated file is refused with its line and
 * nothing changes. Look-ups of inflected forms reach their dictionary form in German, French, Spanish, Italian and
 * Russian; the Wiktionary and OpenRussian dictionaries (a few lines in their format, tests/fixtures/dictionaries/
 * vendored) load beside them, Wiktionary's "form of" lines naming a form's dictionary form (Ukrainian "лікарів").
 *
 * Uses the Debian packages dict-freedict-fra-eng (in /usr/share/dictd) and hunspell-{de-de,fr,es,it,ru} (in
 * /usr/share/hunspell), and small dictd dictionaries written here in the same format. Needs `npm run build` (the
 * PostgreSQL part starts the server) and the PostgreSQL server of tests/support/pg-global-setup.ts.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../app/db/open.server.ts";
import { lookUp } from "../../app/dictionary/entries.server.ts";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { PROJECT_ROOT, startServer } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

const work = tempDir("dictionary-install");
afterAll(() => rmSync(work, { recursive: true, force: true }));
const migrationsFolder = path.join(PROJECT_ROOT, "drizzle");

function run(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["scripts/dict-install.ts", ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    timeout: 600_000,
  });
  return { status: result.status, out: result.stdout + result.stderr };
}

const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const base64 = (n: number): string => (n < 64 ? DIGITS[n]! : base64(Math.floor(n / 64)) + DIGITS[n % 64]);

/** Writes freedict-<pair>.index and .dict.dz as dictfmt does, from headword → "first line\nglosses…". */
function writeDictd(dir: string, pair: string, entries: Record<string, string>) {
  let data = Buffer.alloc(0);
  const index: string[] = [];
  for (const [key, text] of Object.entries(entries)) {
    const bytes = Buffer.from(`${text}\n`, "utf8");
    index.push(`${key}\t${base64(data.length)}\t${base64(bytes.length)}`);
    data = Buffer.concat([data, bytes]);
  }
  writeFileSync(path.join(dir, `freedict-${pair}.index`), `${index.join("\n")}\n`);
  writeFileSync(path.join(dir, `freedict-${pair}.dict.dz`), gzipSync(data));
}

// A few headwords per language, as FreeDict writes them (pronunciation, grammar tags, glosses, references).
const dictd = path.join(work, "dictd");
mkdirSync(dictd, { recursive: true });
writeDictd(dictd, "deu-eng", {
  schlafen: "schlafen /ʃlˈɑːfən/ <v>\nsleep <v>\n see: {schlafend}, {geschlafen}",
  geschlafen: "geschlafen /ɡəʃlˈɑːfən/\nslept\n see: {schlafen}, {er/sie schläft}, {ich/er/sie schlief}",
  trinken:
    'trinken /tɾˈɪŋkən/ <v, intr, trans>\ndrink <v>\n      "Was möchtest du trinken?"  - What would you like to drink?',
  schwester: "Schwester /ʃvˈɛstɜ/ <fem, n, sg>\nsister <n>\n   Synonym: {Geschwister}",
  kaffee: "Kaffee /kˈafeː/ <masc, n, sg>\n [cook.] coffee <n>",
});
writeDictd(dictd, "spa-eng", { tener: "tener /tenˈeɾ/\nhave, own", casa: "casa /kˈasa/\nhouse" });
writeDictd(dictd, "ita-eng", { parlare: "parlare /paɾlˈaɾe/\nspeak, talk" });
writeDictd(dictd, "rus-eng", { врач: "врач <n, masc>\ndoctor, physician", книга: "книга <n, fem>\nbook" });
copyFileSync("/usr/share/dictd/freedict-fra-eng.index", path.join(dictd, "freedict-fra-eng.index"));
copyFileSync("/usr/share/dictd/freedict-fra-eng.dict.dz", path.join(dictd, "freedict-fra-eng.dict.dz"));
const vendored = path.join(PROJECT_ROOT, "tests/fixtures/dictionaries/vendored");
const PAIRS = ["--only", "deu-eng,spa-eng,ita-eng,rus-eng,fra-eng", "--dictd-dir", dictd, "--vendored-dir", vendored];

async function withDatabase<T>(
  env: { DATA_DIR?: string; DATABASE_URL?: string },
  fn: (h: DatabaseHandle) => Promise<T>,
) {
  const dataDir = env.DATA_DIR ?? path.join(work, "unused");
  const handle = await openDatabase({ dataDir, databaseUrl: env.DATABASE_URL, migrationsFolder });
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

const counts = async (handle: DatabaseHandle) => {
  const result = await handle.db.execute(sql`
    select (select count(*) from dictionary_entries)::int as entries, (select count(*) from dictionary_forms)::int as forms`);
  return (result as unknown as { rows: { entries: number; forms: number }[] }).rows[0]!;
};

const INDEXES = [
  "dictionary_entries_pkey",
  "dictionary_entries_headword_idx",
  "dictionary_entries_lemma_idx",
  "dictionary_entries_source_idx",
  "dictionary_forms_form_idx",
  "dictionary_forms_source_idx",
];

/** The dictionary tables' valid indexes, by name, with the number of the file each one is stored in. */
const indexFiles = async (handle: DatabaseHandle) => {
  const result = await handle.db.execute(sql`
    select c.relname as name, c.relfilenode::text as file from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid in ('dictionary_entries'::regclass, 'dictionary_forms'::regclass) and i.indisvalid
    order by c.relname`);
  return Object.fromEntries(
    (result as unknown as { rows: { name: string; file: string }[] }).rows.map((row) => [row.name, row.file]),
  );
};

/** Each inflected form, its language and the dictionary form whose glosses the look-up offers. */
const INFLECTED: [string, string, string, string][] = [
  ["de", "trinke", "trinken", "drink"],
  ["de", "schläft", "schlafen", "sleep"],
  ["de", "Schwestern", "Schwester", "sister"],
  ["fr", "médecins", "médecin", "doctor, physician"],
  ["fr", "ont", "avoir", "have, have got"],
  ["es", "tienen", "tener", "have, own"],
  ["it", "parlano", "parlare", "speak, talk"],
  ["ru", "врачей", "врач", "doctor, physician"],
  // From the vendored dictionaries: Wiktionary's Spanish, French and Ukrainian, OpenRussian.
  ["es", "tienen", "tener", "to have"],
  ["fr", "médecins", "médecin", "doctor"],
  ["ru", "врачей", "врач", "physician"],
  ["uk", "лікарів", "лікар", "doctor"],
  ["uk", "лікарем", "лікар", "doctor"],
];

async function expectInflectedFound(handle: DatabaseHandle) {
  for (const [language, form, lemma, gloss] of INFLECTED) {
    const found = await lookUp(handle.db, language, ["en"], form);
    // The server's start loads the public lists' glosses too ("trinken" → "to drink"): any of the entries.
    const glosses = found.filter((entry) => entry.via === lemma).flatMap((entry) => entry.glosses);
    expect(glosses, `${form} → ${lemma}`).toContain(gloss);
  }
  const kaffee = await lookUp(handle.db, "de", ["en"], "Kaffee");
  expect(kaffee.filter((entry) => entry.via === null).flatMap((entry) => entry.glosses)).toContain("coffee");
}

describe("dict:install on the embedded database", { timeout: 600_000 }, () => {
  const env = { DATA_DIR: path.join(work, "embedded") };

  it("loads the dictionaries and the forms; inflected words reach their dictionary form; again skips", async () => {
    const empty = await withDatabase(env, indexFiles);
    expect(Object.keys(empty).sort()).toEqual([...INDEXES].sort());
    const first = run(PAIRS, env);
    expect(first.out).toContain("freedict-fra-eng fr → en: 8418 entries (GPL-2.0-or-later)");
    expect(first.out).toMatch(/hunspell-de_DE de: \d+ inflected forms/);
    expect(first.out).toContain("wiktionary uk → en: 5 entries (CC BY-SA 3.0 or GFDL (Wiktionary))");
    expect(first.out).toContain("openrussian ru → en: 4 entries (CC BY-SA 4.0 (OpenRussian.org))");
    expect(first.out).toContain("10 dictionaries loaded, 0 unchanged");
    expect(first.status).toBe(0);
    // The first load writes the tables without their indexes and builds each once afterwards: all there, new files.
    expect(first.out).toMatch(/built dictionary_entries_pkey, dictionary_entries_headword_idx, .* in \d+ ms/);
    const { loaded, indexes } = await withDatabase(env, async (handle) => {
      await expectInflectedFound(handle);
      // Wiktionary names the dictionary form itself, without Hunspell.
      const form = await handle.db.execute(
        sql`select lemma from dictionary_entries where source = 'wiktionary' and headword = 'лікарів'`,
      );
      expect((form as unknown as { rows: { lemma: string }[] }).rows).toEqual([{ lemma: "лікар" }]);
      // Hunspell's Italian forms are not expanded for Wiktionary's headwords alone (a verb's clitics, ADR 130).
      const italian = await handle.db.execute(
        sql`select lemma, count(*)::int as n from dictionary_forms where language = 'it' group by lemma order by lemma`,
      );
      const lemmas = (italian as unknown as { rows: { lemma: string }[] }).rows.map((row) => row.lemma);
      expect(lemmas).toContain("parlare");
      expect(lemmas).not.toContain("mangiare");
      return { loaded: await counts(handle), indexes: await indexFiles(handle) };
    });
    expect(Object.keys(indexes).sort()).toEqual([...INDEXES].sort());
    for (const name of INDEXES) expect(indexes[name], name).not.toBe(empty[name]);
    const again = run(PAIRS, env);
    expect(again.out).toContain("0 dictionaries loaded, 10 unchanged");
    expect(again.out).not.toContain("inflected forms");
    expect(again.out).not.toContain("built");
    expect(again.status).toBe(0);
    await withDatabase(env, async (handle) => {
      expect(await counts(handle)).toEqual(loaded);
      expect(await indexFiles(handle)).toEqual(indexes);
    });
  });

  it("refuses a malformed or truncated file with its line, and changes nothing", async () => {
    const before = await withDatabase(env, counts);
    const bad = path.join(work, "bad");
    mkdirSync(bad, { recursive: true });
    for (const suffix of [".index", ".dict.dz"])
      copyFileSync(path.join(dictd, `freedict-fra-eng${suffix}`), path.join(bad, `freedict-fra-eng${suffix}`));
    copyFileSync(path.join(dictd, "freedict-deu-eng.dict.dz"), path.join(bad, "freedict-deu-eng.dict.dz"));
    // An index line without its length (line 3), beside an intact dictionary: neither is loaded.
    const lines = readFileSync(path.join(dictd, "freedict-deu-eng.index"), "utf8").split("\n");
    lines[2] = lines[2]!.split("\t").slice(0, 2).join("\t");
    writeFileSync(path.join(bad, "freedict-deu-eng.index"), lines.join("\n"));
    const malformed = run(["--only", "fra-eng,deu-eng", "--dictd-dir", bad, "--no-forms"], env);
    expect(malformed.out).toContain("freedict-deu-eng.index is not a valid dictd file, nothing was changed: line 3:");
    expect(malformed.status).toBe(1);
    // A .dict.dz cut in the middle.
    const packed = readFileSync(path.join(dictd, "freedict-fra-eng.dict.dz"));
    writeFileSync(path.join(bad, "freedict-fra-eng.dict.dz"), packed.subarray(0, packed.length / 2));
    const truncated = run(["--only", "fra-eng", "--dictd-dir", bad], env);
    expect(truncated.out).toContain("freedict-fra-eng.dict.dz is not a valid dictd file, nothing was changed");
    expect(truncated.out).toContain("damaged or truncated");
    expect(truncated.status).toBe(1);
    await withDatabase(env, async (handle) => expect(await counts(handle)).toEqual(before));
  });

  it("refuses a malformed or truncated vendored dictionary with its line, and changes nothing", async () => {
    const before = await withDatabase(env, counts);
    const bad = path.join(work, "bad-vendored");
    mkdirSync(bad, { recursive: true });
    copyFileSync(path.join(vendored, "openrussian-ru-en.tsv.gz"), path.join(bad, "openrussian-ru-en.tsv.gz"));
    // A line of five cells (line 2), beside an intact dictionary: neither is loaded.
    const lines = gunzipSync(readFileSync(path.join(vendored, "wiktionary-es-en.tsv.gz")))
      .toString()
      .split("\n");
    lines[1] = `${lines[1]}\textra\tcells`;
    writeFileSync(path.join(bad, "wiktionary-es-en.tsv.gz"), gzipSync(lines.join("\n")));
    const malformed = run(["--only", "fra-eng", "--dictd-dir", dictd, "--vendored-dir", bad, "--no-forms"], env);
    expect(malformed.out).toMatch(
      /wiktionary-es-en\.tsv\.gz is not a valid dictionary file, nothing was changed: line 2: expected at most 4/,
    );
    expect(malformed.status).toBe(1);
    const packed = readFileSync(path.join(vendored, "wiktionary-uk-en.tsv.gz"));
    rmSync(path.join(bad, "wiktionary-es-en.tsv.gz"));
    writeFileSync(path.join(bad, "wiktionary-uk-en.tsv.gz"), packed.subarray(0, packed.length - 12));
    const truncated = run(["--only", "fra-eng", "--dictd-dir", dictd, "--vendored-dir", bad, "--no-forms"], env);
    expect(truncated.out).toContain("wiktionary-uk-en.tsv.gz is not a valid dictionary file, nothing was changed");
    expect(truncated.out).toContain("damaged or truncated");
    expect(truncated.status).toBe(1);
    await withDatabase(env, async (handle) => expect(await counts(handle)).toEqual(before));
  });
});

describe("dict:install on PostgreSQL", () => {
  it("loads while the app serves; the sources page names each licence", { timeout: 600_000 }, async () => {
    const url = await createDatabase(inject("pgUrl"), `dict_install_${process.pid}_${Date.now()}`);
    const server = await startServer({ env: { DATABASE_URL: url, AUTH_PROVIDER: "local" } });
    try {
      const result = run(PAIRS, { DATABASE_URL: url });
      expect(result.out).toContain("10 dictionaries loaded, 0 unchanged, into PostgreSQL");
      expect(result.status).toBe(0);
      await withDatabase({ DATABASE_URL: url }, expectInflectedFound);
      const page = await (await fetch(`${server.baseUrl}/dictionaries`)).text();
      expect(page).toContain("French-English FreeDict Dictionary");
      expect(page).toContain("GPL-2.0-or-later");
      expect(page).toContain("MPL-2.0 (Dicollecte)");
      expect(page).toContain("Wiktionary dictionaries into English (kaikki.org)");
      expect(page).toContain("Spanish, French, Italian, and Ukrainian → English");
      expect(page).toContain("CC BY-SA 3.0 or GFDL (Wiktionary)");
      expect(page).toContain("CC BY-SA 4.0 (OpenRussian.org)");
    } finally {
      await server.stop();
    }
  });
});
