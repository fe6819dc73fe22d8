/**
 * The dictionaries `npm run dict:install` loads by default (docs/decisions/099-open-dictionaries-come-with-the-product.md):
 * FreeDict's dictd dictionaries from Debian (package dict-freedict-<from>-<to>) from a study language into an interface
 * language, English → X dictionaries read backwards where FreeDict has no X → English one, and CC-CEDICT.
 */
import { existsSync } from "node:fs";
import path from "node:path";

/** FreeDict's ISO 639-3 codes → ours. */
export const FREEDICT_LANGUAGES: Record<string, string> = {
  ara: "ar",
  deu: "de",
  ell: "el",
  eng: "en",
  fra: "fr",
  heb: "he",
  hin: "hi",
  ind: "id",
  ita: "it",
  jpn: "ja",
  kor: "ko",
  nld: "nl",
  pol: "pl",
  por: "pt",
  rus: "ru",
  spa: "es",
  swe: "sv",
  tur: "tr",
  ukr: "uk",
  vie: "vi",
  zho: "zh",
};

/** X → interface language, as FreeDict ships them in Debian (every pair from a study language that exists). */
const DIRECT = [
  "ara-eng deu-eng deu-fra deu-spa deu-tur ell-eng ell-fra ell-spa eng-deu eng-fra eng-spa eng-tur",
  "fra-deu fra-eng fra-spa fra-tur ita-deu ita-eng ita-spa ita-tur jpn-deu jpn-eng jpn-fra",
  "nld-deu nld-eng nld-fra nld-spa pol-deu pol-eng pol-fra pol-spa pol-tur por-deu por-eng por-fra por-spa",
  "spa-deu spa-eng swe-deu swe-eng swe-fra swe-spa swe-tur",
].flatMap((line) => line.split(" "));

/**
 * English → X read backwards as X → English: the only X → English FreeDict has for hi, id and ru, and more words for
 * the rest. Such a source keeps the pair's name; its direction tells it apart.
 */
const REVERSED =
  "eng-deu eng-fra eng-spa eng-tur eng-ara eng-ell eng-hin eng-ind eng-ita eng-jpn eng-nld eng-pol eng-por eng-rus eng-swe".split(
    " ",
  );

export type FreeDictSource = {
  /** The FreeDict pair, e.g. "deu-eng"; its files are freedict-<pair>.index and .dict.dz. */
  pair: string;
  /** The source's name in the database: "freedict-deu-eng". */
  name: string;
  from: string;
  to: string;
  reversed: boolean;
};

/** A pair by its FreeDict name ("deu-eng", or "eng-rus" read backwards as "rus-eng"); null for unknown languages. */
export function freeDictSource(pair: string, reversed = false): FreeDictSource | null {
  const [a, b] = pair.split("-");
  const from = FREEDICT_LANGUAGES[a ?? ""];
  const to = FREEDICT_LANGUAGES[b ?? ""];
  if (!from || !to || !/^[a-z]{3}-[a-z]{3}$/.test(pair)) return null;
  return reversed
    ? { pair, name: `freedict-${pair}`, from: to, to: from, reversed }
    : { pair, name: `freedict-${pair}`, from, to, reversed };
}

export const DEFAULT_SET: FreeDictSource[] = [
  ...DIRECT.map((pair) => freeDictSource(pair)!),
  ...REVERSED.map((pair) => freeDictSource(pair, true)!),
];

export const debianPackage = (source: FreeDictSource) => `dict-freedict-${source.pair}`;

export const dictdFiles = (dir: string, source: FreeDictSource) => ({
  index: path.join(dir, `freedict-${source.pair}.index`),
  data: path.join(dir, `freedict-${source.pair}.dict.dz`),
});

export const isPresent = (dir: string, source: FreeDictSource) => {
  const files = dictdFiles(dir, source);
  return existsSync(files.index) && existsSync(files.data);
};

/** Our language → the Hunspell dictionary Debian installs for it, and its licence (from the package's copyright). */
export const HUNSPELL: Record<string, { file: string; package: string; licence: string }> = {
  de: { file: "de_DE", package: "hunspell-de-de", licence: "GPL-2.0 or GPL-3.0 (igerman98)" },
  fr: { file: "fr", package: "hunspell-fr", licence: "MPL-2.0 (Dicollecte)" },
  es: { file: "es_ES", package: "hunspell-es", licence: "GPL-3.0, LGPL-3.0 or MPL-1.1 (RLA-ES)" },
  it: { file: "it_IT", package: "hunspell-it", licence: "GPL-3.0 (Italian Writing Aids)" },
  pt: { file: "pt_PT", package: "hunspell-pt-pt", licence: "GPL-2.0, LGPL-2.1 or MPL-1.1" },
  ru: { file: "ru_RU", package: "hunspell-ru", licence: "BSD-style (AOT, Alexander Lebedev)" },
  uk: { file: "uk_UA", package: "hunspell-uk", licence: "MPL-1.1, GPL-2.0 or LGPL-2.1 (dict_uk)" },
};

/** The Debian packages of the default set: its FreeDict dictionaries and the Hunspell dictionaries of its forms. */
export const packages = (sources: readonly FreeDictSource[] = DEFAULT_SET) => [
  ...new Set([...sources.map(debianPackage), ...Object.values(HUNSPELL).map((entry) => entry.package)]),
];
