/**
 * Dictionaries converted from open data (docs/decisions/130-…): Wiktionary's German,
 * Spanish, French, Italian and Ukrainian → English (Vuizur/Wiktionary-Dictionaries, from kaikki.org's extract) and
 * OpenRussian's Russian → English, each a gzipped TSV in `dict:import`'s format (headword, glosses separated by ";",
 * part of speech, dictionary form). A line with a dictionary form and no gloss is a Wiktionary "form of" entry
 * ("médecins" → "médecin"). `npm run dict:install` loads them beside FreeDict from the folder that holds them: named by
 * `--vendored-dir` or VENDORED_DICTIONARIES_DIR, else the dictionaries' directory (READINGS_DIR/vendored, ADR 063). The
 * repository carries none of them: without the folder, the install says so and loads the rest.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import type { DictionarySource } from "../../app/dictionary/entries.server.ts";
import { DictionaryFormatError, parseTsv, type Parsed } from "../../app/dictionary/formats.ts";

/** Changes when the reader changes, so that a newer reader loads unchanged files again. */
const READER_VERSION = "vendored-tsv-1";

const WIKTIONARY = {
  licence: "CC BY-SA 3.0 or GFDL (Wiktionary)",
  url: "https://github.com/Vuizur/Wiktionary-Dictionaries",
};

type Vendored = DictionarySource & { file: string };

// One title for every language: the sources page lists a source once, with its languages.
const wiktionary = (from: string): Vendored => ({
  file: `wiktionary-${from}-en.tsv.gz`,
  name: "wiktionary",
  title: "Wiktionary dictionaries into English (kaikki.org)",
  from,
  to: "en",
  ...WIKTIONARY,
});

export const VENDORED: Vendored[] = [
  wiktionary("de"),
  wiktionary("es"),
  wiktionary("fr"),
  wiktionary("it"),
  wiktionary("uk"),
  {
    file: "openrussian-ru-en.tsv.gz",
    name: "openrussian",
    title: "OpenRussian Russian-English dictionary",
    licence: "CC BY-SA 4.0 (OpenRussian.org)",
    url: "https://en.openrussian.org/",
    from: "ru",
    to: "en",
  },
];

/**
 * Headwords whose Hunspell forms are not expanded (ADR 130): Hunspell's Italian gives a verb every clitic pronoun
 * ("parlarmelo", "parliamoglielo") and a numeral its compounds, 7.7 million forms (1.1 GB) for Wiktionary's headwords.
 */
export const NOT_EXPANDED: Record<string, string[]> = { it: ["wiktionary"] };

/** The folder of the converted files, when this machine has one: VENDORED_DICTIONARIES_DIR, else READINGS_DIR's. */
export function vendoredDir(): string | null {
  const named = process.env.VENDORED_DICTIONARIES_DIR;
  if (named) return named;
  const shipped = process.env.READINGS_DIR && path.join(process.env.READINGS_DIR, "vendored");
  return shipped && existsSync(shipped) ? shipped : null;
}

export type PlannedSource = { source: DictionarySource; digest: string; read: () => Parsed };

function unpack(packed: Buffer): string {
  try {
    return gunzipSync(packed).toString("utf8");
  } catch {
    throw new DictionaryFormatError(null, "the gzip data is damaged or truncated");
  }
}

/**
 * Reads and checks every vendored file of `dir` (a missing one is left out): the sources to load, and the refusals
 * (file and line) of the malformed or truncated ones.
 */
export function planVendored(dir: string): { planned: PlannedSource[]; refusals: string[] } {
  const planned: PlannedSource[] = [];
  const refusals: string[] = [];
  for (const { file, ...source } of VENDORED) {
    const where = path.join(dir, file);
    if (!existsSync(where)) continue;
    const packed = readFileSync(where);
    try {
      // Checked now, read again when loaded: the entries of every file are not held at once.
      parseTsv(unpack(packed));
      planned.push({
        source,
        digest: createHash("sha256").update(READER_VERSION).update(packed).digest("hex"),
        read: () => parseTsv(unpack(packed)),
      });
    } catch (error) {
      if (!(error instanceof DictionaryFormatError)) throw error;
      refusals.push(`dict-install: ${where} is not a valid dictionary file, nothing was changed: ${error.message}`);
    }
  }
  return { planned, refusals };
}
