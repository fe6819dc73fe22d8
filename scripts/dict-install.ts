/**
 * Installs and loads the open dictionaries that come with the product (docs/decisions/099-…):
 *
 *   node scripts/dict-install.ts [PAIR…] [--only PAIR,…] [--dictd-dir DIR] [--hunspell-dir DIR]
 *     [--vendored-dir DIR]                                                                       (npm run dict:install)
 *
 * The default set: FreeDict's dictd dictionaries (Debian's dict-freedict-* packages, in /usr/share/dictd) from the
 * study languages into the interface languages, English → X ones read backwards, CC-CEDICT, the Wiktionary and
 * OpenRussian dictionaries into English where this machine has them (ADR 130: `--vendored-dir` or
 * VENDORED_DICTIONARIES_DIR names their folder, and loads them with `--only` too), and the inflected forms of Hunspell's dictionaries (/usr/share/hunspell) that lead to
 * a headword. PAIR names another FreeDict pair ("deu-rus"); `--only` loads just the pairs named (and no CC-CEDICT).
 * On Debian as root, missing packages are installed with apt-get; elsewhere the command says what to install and
 * loads what is there. Nothing is downloaded at run time otherwise.
 *
 * Every file is checked before the database is opened: a malformed or truncated one is refused with its line and
 * nothing changes. A dictionary whose files are unchanged since it was loaded is skipped. With DATABASE_URL it runs
 * while the app serves; with DATA_DIR (the embedded database, default ./data) the server must be stopped. Exit
 * status 0 when everything asked for is loaded, 1 when something was refused or failed, 2 for a wrong command line.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { parseDictd, dictdInfo, parseDictdIndex, unpackDictdData } from "../app/dictionary/dictd.ts";
import { replaceSource, storedDigests, type DictionarySource } from "../app/dictionary/entries.server.ts";
import { DictionaryFormatError, parseCedict, type Parsed } from "../app/dictionary/formats.ts";
import { cedictFile } from "./support/cedict.ts";
import {
  DEFAULT_SET,
  HUNSPELL,
  debianPackage,
  dictdFiles,
  freeDictSource,
  isPresent,
  type FreeDictSource,
} from "./support/dictionary-set.ts";
import { installForms } from "./support/dictionary-forms.ts";
import { copySource, dropIndexes, ensureIndexes, type PgliteClient } from "./support/dictionary-load.ts";
import { planVendored, vendoredDir } from "./support/vendored-dictionaries.ts";
import { openScriptDatabase } from "./support/script-database.ts";

/** Changes when the readers change, so that a newer reader loads unchanged files again. */
const READER_VERSION = "dictd-2";

function usage(message: string): never {
  console.error(
    `dict-install: ${message}\nusage: node scripts/dict-install.ts [PAIR…] [--only PAIR,…] [--dictd-dir DIR] ` +
      `[--hunspell-dir DIR] [--vendored-dir DIR]\n  PAIR: a FreeDict pair, e.g. deu-rus (package dict-freedict-deu-rus)`,
  );
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      only: { type: "string" },
      "dictd-dir": { type: "string" },
      "hunspell-dir": { type: "string" },
      "vendored-dir": { type: "string" },
      "no-forms": { type: "boolean" },
    },
  });
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
const { values, positionals } = parsed;
// In the image the files lie in the dictionaries' directory (READINGS_DIR, ADR 063); elsewhere where Debian puts them.
const readings = (name: string) => {
  const dir = process.env.READINGS_DIR && path.join(process.env.READINGS_DIR, name);
  return dir && existsSync(dir) ? dir : undefined;
};
const dictdDir = values["dictd-dir"] ?? readings("dictd") ?? "/usr/share/dictd";
const hunspellDir = values["hunspell-dir"] ?? readings("hunspell") ?? "/usr/share/hunspell";
// A pair of the default set names both its directions ("eng-spa": English → Spanish and Spanish → English).
const named = (pair: string): FreeDictSource[] => {
  const known = DEFAULT_SET.filter((source) => source.pair === pair);
  if (known.length > 0) return known;
  return [freeDictSource(pair) ?? usage(`${pair} is not a FreeDict pair of languages we know`)];
};
const only = values.only?.split(",").filter(Boolean);
const sources: FreeDictSource[] = only ? only.flatMap(named) : [...DEFAULT_SET, ...positionals.flatMap(named)];
const withCedict = !only;
// The vendored Wiktionary and OpenRussian dictionaries (ADR 130) come with the default set, or from a folder named.
const vendored = values["vendored-dir"] ?? (only ? undefined : (vendoredDir() ?? undefined));
if (!vendored && !only)
  console.info(
    "The Wiktionary and OpenRussian dictionaries into English are not on this machine: name their folder with " +
      "--vendored-dir or VENDORED_DICTIONARIES_DIR to load them (docs/decisions/130-…).",
  );

// Missing packages: installed on Debian as root, otherwise named.
const missing = [...new Map(sources.map((source) => [source.pair, source])).values()].filter(
  (source) => !isPresent(dictdDir, source),
);
const missingHunspell = values["no-forms"]
  ? []
  : Object.values(HUNSPELL).filter((entry) => !existsSync(path.join(hunspellDir, `${entry.file}.dic`)));
if (missing.length + missingHunspell.length > 0) {
  const packages = [...missing.map(debianPackage), ...missingHunspell.map((entry) => entry.package)];
  const canInstall = dictdDir === "/usr/share/dictd" && process.getuid?.() === 0 && hasAptGet();
  if (canInstall) {
    console.log(`dict-install: installing ${packages.length} packages from Debian's repositories`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update", "-q"], { stdio: "inherit", env });
    const apt = spawnSync("apt-get", ["install", "-y", "-q", "--no-install-recommends", ...packages], {
      stdio: "inherit",
      env,
    });
    if (apt.status !== 0) console.error("dict-install: apt-get failed; loading the dictionaries that are there");
  } else {
    console.error(
      `dict-install: ${packages.length} dictionaries are not in ${dictdDir} or ${hunspellDir}. On Debian or Ubuntu ` +
        `install them with:\n` +
        `  sudo apt-get install -y ${packages.join(" ")}\n` +
        "(or point --dictd-dir and --hunspell-dir at folders with their files); loading the ones that are there.",
    );
  }
}
const present = sources.filter((source) => isPresent(dictdDir, source));

function hasAptGet() {
  return spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
}

// Every file is read and checked before the database is opened.
type Planned = { source: DictionarySource; digest: string; read: () => Parsed };
const planned: Planned[] = [];
let refused = false;
for (const source of present) {
  const files = dictdFiles(dictdDir, source);
  try {
    const indexText = readFileSync(files.index, "utf8");
    const packed = readFileSync(files.data);
    parseDictdIndex(indexText, unpackDictdData(packed).length);
    const info = dictdInfo(indexText, packed);
    const digest = createHash("sha256").update(READER_VERSION).update(indexText).update(packed).digest("hex");
    planned.push({
      source: {
        name: source.name,
        title: `${info.title ?? `FreeDict ${source.pair}`}${source.reversed ? " (read backwards)" : ""}`,
        licence: info.licence,
        url: `https://freedict.org/`,
        from: source.from,
        to: source.to,
      },
      digest,
      read: () => parseDictd(indexText, packed, { reversed: source.reversed }),
    });
  } catch (error) {
    if (!(error instanceof DictionaryFormatError)) throw error;
    const file = /index|line/.test(error.message) ? files.index : files.data;
    console.error(`dict-install: ${file} is not a valid dictd file, nothing was changed: ${error.message}`);
    refused = true;
  }
}
if (withCedict) {
  const file = cedictFile();
  const text = readFileSync(file, "utf8");
  try {
    const result = parseCedict(text);
    planned.push({
      source: {
        name: "cc-cedict",
        title: "CC-CEDICT",
        licence: "CC BY-SA 4.0",
        url: "https://cc-cedict.org/wiki/",
        from: "zh",
        to: "en",
      },
      digest: createHash("sha256").update(text).digest("hex"),
      read: () => result,
    });
  } catch (error) {
    if (!(error instanceof DictionaryFormatError)) throw error;
    console.error(`dict-install: ${file} is not a valid CC-CEDICT file, nothing was changed: ${error.message}`);
    refused = true;
  }
}
if (vendored) {
  const { planned: read, refusals } = planVendored(vendored);
  planned.push(...read);
  for (const refusal of refusals) console.error(refusal);
  if (refusals.length > 0) refused = true;
}
if (refused) process.exit(1);

const { handle, databaseUrl, dataDir } = await openScriptDatabase("dict-install", {
  running:
    ", install, then start it again; with PostgreSQL (DATABASE_URL) dictionaries load while the app serves. " +
    "Nothing was changed.",
  failed: ", nothing was changed",
});
const where = databaseUrl ? "PostgreSQL" : `the embedded database in ${dataDir}`;
const size = async () => {
  const result = await handle.db.execute(
    sql`select (pg_total_relation_size('dictionary_entries') + pg_total_relation_size('dictionary_forms'))::bigint as n`,
  );
  return Number((result as unknown as { rows: { n: string | number }[] }).rows[0]!.n);
};
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

const started = Date.now();
let loaded = 0;
let skipped = 0;
// On the embedded database rows go in with COPY, and a load of most of the set builds the indexes once at the end.
const pglite = handle.kind === "pglite" ? (handle.client as unknown as PgliteClient) : undefined;
try {
  const digests = await storedDigests(handle.db);
  const changed = planned.filter(({ source, digest }) => digests.get(sourceKey(source)) !== digest);
  skipped = planned.length - changed.length;
  const bulk = pglite !== undefined && changed.length > 1 && changed.length * 2 >= planned.length;
  if (pglite && bulk) await dropIndexes(pglite, "entries");
  for (const { source, digest, read } of changed) {
    const began = Date.now();
    const before = await size();
    const { written } = pglite
      ? await copySource(pglite, source, read().entries, digest)
      : await replaceSource(handle.db, source, read().entries, digest);
    const grown = (await size()) - before;
    loaded++;
    console.log(
      `dict-install: ${source.name} ${source.from} → ${source.to}: ${written} entries (${source.licence}) in ` +
        `${Date.now() - began} ms, database ${grown >= 0 ? "+" : ""}${mb(grown)}`,
    );
  }
  if (pglite) await buildIndexes(pglite, "entries");
  if (!values["no-forms"]) {
    if (pglite && bulk) await dropIndexes(pglite, "forms");
    await installForms(handle.db, hunspellDir, { log: (line) => console.log(line), size, pglite });
  }
  if (pglite) await buildIndexes(pglite, "forms");
  console.log(
    `dict-install: ${loaded} dictionaries loaded, ${skipped} unchanged, into ${where} in ` +
      `${Math.round((Date.now() - started) / 1000)} s; dictionary tables ${mb(await size())}`,
  );
  await handle.close();
} catch (error) {
  // A failed load leaves the tables with their indexes.
  if (pglite) for (const table of ["entries", "forms"] as const) await ensureIndexes(pglite, table).catch(() => {});
  await handle.close().catch(() => {});
  console.error(`dict-install: failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
if (missing.length > 0 && present.length < sources.length) process.exit(1);

function sourceKey(source: DictionarySource) {
  return `${source.name} ${source.from} ${source.to}`;
}

async function buildIndexes(client: PgliteClient, table: "entries" | "forms") {
  const began = Date.now();
  const built = await ensureIndexes(client, table);
  if (built.length > 0)
    console.log(`dict-install: built ${built.join(", ")} in ${Date.now() - began} ms, tables ${mb(await size())}`);
}
