import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { IpadicFeatures, Tokenizer } from "kuromoji";
import { log } from "../server/log.server";
import { hasKanji, READING_LANGUAGES, toHiragana } from "./readings";
import { setAnalyser, type AnalysedWord, type Analyser } from "./segment";

/**
 * The analysers of Japanese (kuromoji with IPADIC) and Chinese (jieba, with pinyin-pro's readings), server-side only
 * (ADR 063). Each is loaded on the first need of its language, in the background: kuromoji reads and unzips its
 * dictionary on the thread pool (its longest turn of the event loop ~70 ms on an idle core), jieba builds its
 * dictionary in one turn (~120 ms). A request that needs one waits for it without holding the event loop; while it is missing (no dictionary
 * installed, READINGS_DIR naming none, or a failure), the platform's `Intl.Segmenter` cuts the text and there are no
 * readings. The packages are loaded with `require` at run time, so no bundle (client or server) holds them.
 */

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

/** Where each dictionary lies: under READINGS_DIR (`ipadic/`, `jieba/dict.txt`) when set, else in its package. */
export function dictionaryPaths(dir = process.env.READINGS_DIR) {
  if (dir) return { ipadic: path.join(dir, "ipadic"), jieba: path.join(dir, "jieba", "dict.txt") };
  return {
    ipadic: path.join(packageDir("kuromoji"), "dict"),
    jieba: path.join(packageDir("@node-rs/jieba"), "dict.txt"),
  };
}

export const KUROMOJI_ID = "kuromoji-ipadic";
export const JIEBA_ID = "jieba";

/** Parts of speech that lean on the verb, adjective or auxiliary before them and make one word with it. */
const leansOnVerb = (token: IpadicFeatures) =>
  token.pos === "助動詞" ||
  (token.pos === "動詞" && (token.pos_detail_1 === "非自立" || token.pos_detail_1 === "接尾")) ||
  (token.pos === "助詞" &&
    token.pos_detail_1 === "接続助詞" &&
    (token.surface_form === "て" || token.surface_form === "で"));
const VERBAL = new Set(["動詞", "形容詞", "助動詞"]);

/** A token's reading in kana: IPADIC's for words it knows, the word itself when written in kana, else none. */
const readingOf = (token: IpadicFeatures) =>
  token.reading && token.reading !== "*" ? token.reading : hasKanji(token.surface_form) ? null : token.surface_form;

/**
 * Japanese words from IPADIC's morphemes: a verb or adjective with the auxiliaries and endings that follow it is one
 * word (飲みました, 行きたい, 食べて), as a learner looks it up; each word has its reading in hiragana when it holds kanji.
 */
export function japaneseWords(tokenizer: Tokenizer<IpadicFeatures>, line: string): AnalysedWord[] {
  const words: (AnalysedWord & { verbal: boolean; kana: string | null })[] = [];
  for (const token of tokenizer.tokenize(line)) {
    const index = token.word_position - 1;
    const last = words.at(-1);
    const kana = readingOf(token);
    if (last && last.verbal && leansOnVerb(token) && last.index + last.text.length === index) {
      last.text += token.surface_form;
      last.kana = last.kana === null || kana === null ? null : last.kana + kana;
    } else words.push({ index, text: token.surface_form, reading: null, verbal: VERBAL.has(token.pos), kana });
  }
  return words.map(({ index, text, kana }) => ({
    index,
    text,
    reading: kana !== null && hasKanji(text) ? toHiragana(kana) : null,
  }));
}

type Jieba = { cut(sentence: string, hmm?: boolean | null): string[] };
type Pinyin = (text: string, options: { type: "array"; toneType: "symbol" }) => string[];
const HAN = /\p{Script=Han}/u;

/** Chinese words as jieba cuts them, each with one pinyin syllable (tone marks) per Han character. */
export function chineseWords(jieba: Jieba, pinyin: Pinyin, line: string): AnalysedWord[] {
  const words: AnalysedWord[] = [];
  let at = 0;
  for (const cut of jieba.cut(line, true)) {
    const index = line.indexOf(cut, at);
    if (index < 0) continue;
    at = index + cut.length;
    let reading: string | null = null;
    if (HAN.test(cut)) {
      const chars = [...cut];
      const syllables = pinyin(cut, { type: "array", toneType: "symbol" });
      if (syllables.length === chars.length) reading = syllables.filter((_, i) => HAN.test(chars[i]!)).join(" ");
    }
    words.push({ index, text: cut, reading });
  }
  return words;
}

async function loadJapanese(dir: string): Promise<Analyser | null> {
  if (!existsSync(path.join(dir, "base.dat.gz"))) {
    log.warn("no IPADIC dictionary: Japanese is cut by Intl.Segmenter, without readings", { dir });
    return null;
  }
  const kuromoji = require("kuromoji") as typeof import("kuromoji");
  const tokenizer = await new Promise<Tokenizer<IpadicFeatures>>((resolve, reject) =>
    kuromoji.builder({ dicPath: dir }).build((error, built) => (error ? reject(error) : resolve(built))),
  );
  return { id: KUROMOJI_ID, words: (line) => japaneseWords(tokenizer, line) };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function loadChinese(file: string): Promise<Analyser | null> {
  if (!existsSync(file)) {
    log.warn("no jieba dictionary: Chinese is cut by Intl.Segmenter, without readings", { file });
    return null;
  }
  // Each step in a turn of its own: the dictionary's build (~120 ms on an idle core) is the longest.
  const dict = await readFile(file);
  const { Jieba } = require("@node-rs/jieba") as { Jieba: { withDict(dict: Uint8Array): Jieba } };
  await nextTurn();
  const { pinyin } = require("pinyin-pro") as { pinyin: Pinyin };
  await nextTurn();
  const jieba = Jieba.withDict(dict);
  await nextTurn();
  // pinyin-pro builds its tables on its first call.
  pinyin("中文", { type: "array", toneType: "symbol" });
  await nextTurn();
  return { id: JIEBA_ID, words: (line) => chineseWords(jieba, pinyin, line) };
}

/** The analyser of a language from the dictionaries at `paths`; null when its dictionary is not there. */
export function loadAnalyser(language: string, paths = dictionaryPaths()): Promise<Analyser | null> {
  if (language === "ja") return loadJapanese(paths.ipadic);
  if (language === "zh") return loadChinese(paths.jieba);
  return Promise.resolve(null);
}

const loading = new Map<string, Promise<void>>();

/**
 * Resolves once the analyser of a language is installed or known to be missing (at once for other languages); the
 * first call for Japanese or Chinese starts loading it.
 */
export function analyserReady(language: string): Promise<void> {
  if (!READING_LANGUAGES.has(language)) return Promise.resolve();
  let found = loading.get(language);
  if (!found) {
    const started = performance.now();
    found = loadAnalyser(language)
      .then((analyser) => {
        setAnalyser(language, analyser);
        if (analyser)
          log.info("readings analyser loaded", {
            language,
            analyser: analyser.id,
            ms: Math.round(performance.now() - started),
          });
      })
      .catch((error: unknown) =>
        log.error("loading a readings analyser failed: Intl.Segmenter cuts the text", {
          language,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
    loading.set(language, found);
  }
  return found;
}
