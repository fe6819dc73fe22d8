/**
 * Loads a dictionary into the app (app/dictionary/formats.ts reads the formats):
 *
 *   node scripts/dict-import.ts FILE --from de --to en [--format tsv|wiktionary|cedict|jmdict|jmdict-json]
 *       [--source NAME] [--title TITLE] [--licence LICENCE] [--url URL]          (npm run dict:import -- FILE …)
 *   node scripts/dict-import.ts --builtin cc-cedict   (the CC-CEDICT that ships with the app, Chinese → English)
 *
 * The whole file is read and checked first: a malformed one is rejected with its line number and nothing changes.
 * Then the source's entries for that direction are replaced in one transaction (importing a newer file again replaces
 * the older one). With DATABASE_URL=postgres://… it runs while the app serves (readers see the old entries until the
 * commit); with DATA_DIR (the embedded database, default ./data) the server must be stopped, since one process owns it.
 * Runs inside the image as it is. Exit status 0 when loaded, 1 when rejected or failed (nothing changed), 2 for a wrong
 * command line.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { cedictFile } from "./support/cedict.ts";
import { openScriptDatabase } from "./support/script-database.ts";
import { replaceSource, type DictionarySource } from "../app/dictionary/entries.server.ts";
import {
  DictionaryFormatError,
  detectFormat,
  FORMATS,
  parseDictionary,
  type Format,
} from "../app/dictionary/formats.ts";

const USAGE = `usage: node scripts/dict-import.ts FILE --from LANG --to LANG [--format ${FORMATS.join("|")}]
    [--source NAME] [--title TITLE] [--licence LICENCE] [--url URL]
  or:  node scripts/dict-import.ts --builtin cc-cedict
  with DATABASE_URL=postgres://… (PostgreSQL, while the app runs) or DATA_DIR=dir (embedded database; default ./data,
  server stopped). A TSV needs --licence; CC-CEDICT, JMdict and Wiktionary extracts name theirs by default.`;

function usage(message: string): never {
  console.error(`dict-import: ${message}\n${USAGE}`);
  process.exit(2);
}

/** What each format is by default: its short name, title, licence and where it comes from. */
const DEFAULTS: Record<Format, Omit<DictionarySource, "from" | "to"> | null> = {
  cedict: {
    name: "cc-cedict",
    title: "CC-CEDICT",
    licence: "CC BY-SA 4.0",
    url: "https://cc-cedict.org/wiki/",
  },
  jmdict: {
    name: "jmdict",
    title: "JMdict (Electronic Dictionary Research and Development Group)",
    licence: "CC BY-SA 4.0 (EDRDG licence)",
    url: "https://www.edrdg.org/edrdg/licence.html",
  },
  "jmdict-json": {
    name: "jmdict",
    title: "JMdict (Electronic Dictionary Research and Development Group)",
    licence: "CC BY-SA 4.0 (EDRDG licence)",
    url: "https://www.edrdg.org/edrdg/licence.html",
  },
  wiktionary: {
    name: "wiktionary",
    title: "Wiktionary (extracted by wiktextract)",
    licence: "CC BY-SA 4.0 and GFDL",
    url: "https://kaikki.org/",
  },
  tsv: null,
};

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      from: { type: "string" },
      to: { type: "string" },
      format: { type: "string" },
      source: { type: "string" },
      title: { type: "string" },
      licence: { type: "string" },
      url: { type: "string" },
      builtin: { type: "string" },
    },
  });
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
const { values, positionals } = parsed;
const BUILTIN: Record<string, { file: string; from: string; to: string; format: Format }> = {
  "cc-cedict": {
    file: cedictFile(),
    from: "zh",
    to: "en",
    format: "cedict",
  },
};
if (values.builtin !== undefined) {
  const builtin = BUILTIN[values.builtin];
  if (!builtin) usage(`--builtin is one of ${Object.keys(BUILTIN).join(", ")}`);
  if (positionals.length > 0 || values.from || values.to || values.format)
    usage("--builtin takes no file or languages");
  positionals.push(builtin.file);
  Object.assign(values, { from: builtin.from, to: builtin.to, format: builtin.format });
}
if (positionals.length !== 1) usage("name one dictionary file");
const language = /^[a-z]{2,3}$/;
if (!values.from || !language.test(values.from)) usage("--from takes the language of the headwords, e.g. de");
if (!values.to || !language.test(values.to)) usage("--to takes the language of the glosses, e.g. en");
if (values.format && !(FORMATS as readonly string[]).includes(values.format))
  usage(`--format is one of ${FORMATS.join(", ")}`);
if (values.url && !/^https:\/\/\S+$/.test(values.url)) usage("--url takes an https address");

const file = path.resolve(positionals[0]!);
let text: string;
try {
  if (!statSync(file).isFile()) throw new Error("not a file");
  text = readFileSync(file, "utf8");
} catch (error) {
  console.error(`dict-import: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const format = (values.format as Format | undefined) ?? detectFormat(path.basename(file), text.slice(0, 4096));
const defaults = DEFAULTS[format];
if (!defaults && !values.licence) usage("a TSV file needs its licence: --licence, e.g. --licence 'CC BY-SA 4.0'");
const name = values.source ?? defaults?.name ?? path.basename(file).replace(/\.[^.]*$/, "");
if (!/^[a-z0-9][a-z0-9._-]{0,63}$/i.test(name)) usage("--source takes a short name of letters, digits, . _ -");
const source: DictionarySource = {
  name,
  title: values.title ?? defaults?.title ?? name,
  licence: values.licence ?? defaults!.licence,
  url: values.url ?? defaults?.url ?? "",
  from: values.from,
  to: values.to,
};

// Everything is read and checked before the database is opened: a malformed file changes nothing.
const started = Date.now();
let result;
try {
  result = parseDictionary(format, text, source.from, source.to);
} catch (error) {
  if (!(error instanceof DictionaryFormatError)) throw error;
  console.error(`dict-import: ${file} is not a valid ${format} file, nothing was changed: ${error.message}`);
  process.exit(1);
}
if (result.entries.length === 0) {
  console.error(
    `dict-import: ${file} holds no entry from ${source.from} to ${source.to} (${result.skipped} skipped), nothing was changed`,
  );
  process.exit(1);
}

const { handle, databaseUrl, dataDir } = await openScriptDatabase("dict-import", {
  running:
    ", import, then start it again; with PostgreSQL (DATABASE_URL) dictionaries load while the app serves. " +
    "Nothing was changed.",
  failed: ", nothing was changed",
});

const where = databaseUrl ? "PostgreSQL" : `the embedded database in ${dataDir}`;
try {
  const { removed, written } = await replaceSource(handle.db, source, result.entries);
  const headwords = new Set(result.entries.map((entry) => entry.headword)).size;
  console.log(
    `dict-import: loaded ${written} entries (${headwords} headwords, ${result.skipped} records skipped) of ` +
      `${source.title} [${source.name}], ${source.from} → ${source.to}, ${source.licence}, from ${file} into ${where} ` +
      `in ${Date.now() - started} ms` +
      (removed > 0 ? `; they replace the ${removed} entries of the earlier import` : ""),
  );
  await handle.close();
} catch (error) {
  await handle.close().catch(() => {});
  console.error(
    `dict-import: import failed, nothing was changed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
