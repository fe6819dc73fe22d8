/**
 * A reading held inside a deck's meaning field: Japanese and Chinese shared decks often put the kana or pinyin in an
 * element of its own before or after the meaning (`<span class="reading">せんしゅう</span> la semaine dernière`).
 */

/** An element with text only (no element inside it): linear, each `<` starts at most one match. */
const PLAIN_ELEMENT = /<(span|div|p|b|i|em|strong|small|font|rt|u)\b[^<>]*>([^<]*)<\/\1\s*>/gi;
const KANA = /^[\p{Script=Hiragana}\p{Script=Katakana}ー・\s]+$/u;
const TONE_MARKS = /[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ]/i;
const PINYIN = /^[a-zü\s'’·āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ-]+$/i;
const NUMBERED_PINYIN = /^([a-zü]+[1-5]\s*)+$/i;
const HAN_OR_KANA = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
const decoded = (html: string) =>
  html.replace(/&([a-z]{2,5});/gi, (whole, name: string) => ENTITIES[name.toLowerCase()] ?? whole).trim();

/** Kana for a Japanese term, pinyin (with tone marks or numbers) for a Chinese one. */
export function looksLikeReading(term: string, value: string): boolean {
  if (!HAN_OR_KANA.test(term) || value.length === 0 || value.length > 200) return false;
  if (KANA.test(value)) return true;
  return (
    /\p{Script=Han}/u.test(term) && ((PINYIN.test(value) && TONE_MARKS.test(value)) || NUMBERED_PINYIN.test(value))
  );
}

/**
 * The reading and what is left of the meaning's HTML, when an element of the meaning holds only the reading of a
 * Japanese or Chinese term and something else remains; null otherwise.
 */
export function readingApart(term: string, meaningHtml: string): { reading: string; meaning: string } | null {
  if (!HAN_OR_KANA.test(term)) return null;
  for (const match of meaningHtml.matchAll(PLAIN_ELEMENT)) {
    const value = decoded(match[2]!);
    if (!looksLikeReading(term, value)) continue;
    const meaning = meaningHtml.slice(0, match.index) + "<br>" + meaningHtml.slice(match.index + match[0].length);
    if (!/[^\s<>]/.test(meaning.replace(/<[^<>]*>/g, "").replace(/&nbsp;/gi, ""))) return null;
    return { reading: value, meaning };
  }
  return null;
}
