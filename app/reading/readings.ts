/**
 * Readings over the words of a text: furigana (hiragana) over the kanji of Japanese words, pinyin with tone marks over
 * the characters of Chinese words. The analysers that find them run on the server only (analysers.server.ts); this
 * module only lays a stored reading over a word, and is safe in the browser.
 */

/** The languages whose words get readings when their analyser is installed. */
export const READING_LANGUAGES: ReadonlySet<string> = new Set(["ja", "zh"]);

/** A word cut into runs of text, each with its reading above it ("" for none): `[["飲", "の"], ["みました", ""]]`. */
export type Ruby = [base: string, reading: string][];

const KANJI = /[\p{Script=Han}々〆ヶ]/u;
const HAN = /\p{Script=Han}/u;

export const hasKanji = (text: string) => KANJI.test(text);

/** Katakana to hiragana (ァ–ヶ; the long vowel mark ー stays as it is). */
export function toHiragana(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += code >= 0x30a1 && code <= 0x30f6 ? String.fromCodePoint(code - 0x60) : char;
  }
  return out;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Furigana for a Japanese word from its reading in kana: each run of kanji gets the part of the reading it stands for,
 * kana get none. The kana of the word anchor the runs of kanji in the reading (飲みました + のみました → 飲[の]みました); when
 * they cannot be matched, the whole word gets the whole reading.
 */
export function furigana(word: string, reading: string): Ruby {
  const hiragana = toHiragana(reading);
  if (!hasKanji(word) || !hiragana) return [[word, ""]];
  const runs = word.match(/[\p{Script=Han}々〆ヶ]+|[^\p{Script=Han}々〆ヶ]+/gu) ?? [word];
  const pattern = runs.map((run) => (hasKanji(run) ? "(.+?)" : `(${escape(toHiragana(run))})`)).join("");
  const found = new RegExp(`^${pattern}$`, "u").exec(hiragana);
  if (!found) return [[word, hiragana]];
  return runs.map((run, i) => [run, hasKanji(run) ? found[i + 1]! : ""]);
}

/** Pinyin over a Chinese word: one syllable over each Han character, when the reading has one per character. */
export function pinyinRuby(word: string, reading: string): Ruby {
  const chars = [...word];
  const syllables = reading.split(" ").filter(Boolean);
  const han = chars.filter((char) => HAN.test(char)).length;
  if (han === 0 || !reading) return [[word, ""]];
  if (syllables.length !== han) return [[word, reading]];
  let next = 0;
  return chars.map((char) => [char, HAN.test(char) ? syllables[next++]! : ""]);
}

const SEPARATOR = "\u001f";

/** A ruby as one string (runs and readings in turn), light to send with the page: arrays of pairs weigh more. */
export const packRuby = (ruby: Ruby) => ruby.flat().join(SEPARATOR);

export function unpackRuby(packed: string): Ruby {
  const parts = packed.split(SEPARATOR);
  const ruby: Ruby = [];
  for (let i = 0; i + 1 < parts.length; i += 2) ruby.push([parts[i]!, parts[i + 1]!]);
  return ruby;
}

/** The ruby of a word in a language from its stored reading; null when it has nothing to show. */
export function rubyOf(language: string, word: string, reading: string | null | undefined): Ruby | null {
  if (!reading) return null;
  const ruby = language === "ja" ? furigana(word, reading) : language === "zh" ? pinyinRuby(word, reading) : null;
  return ruby?.some(([, rt]) => rt) ? ruby : null;
}
