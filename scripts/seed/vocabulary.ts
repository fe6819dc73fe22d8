/**
 * Generated vocabulary for the seed (scripts/seed-terms.ts): words, meanings, notes and examples, deterministic for a
 * given --seed.
 */
import type { PartOfSpeech } from "../../app/learning/vocabulary.ts";

/** mulberry32: a small, fast, seedable PRNG. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;
export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
export function weighted<T>(random: Random, table: readonly (readonly [T, number])[]): T {
  const total = table.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [value, weight] of table) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return table[table.length - 1]![0];
}

/** Roughly the mix of a learner's vocabulary notebook: mostly nouns, verbs and adjectives. */
export const POS_WEIGHTS: readonly (readonly [PartOfSpeech, number])[] = [
  ["noun", 38],
  ["verb", 21],
  ["adjective", 15],
  ["adverb", 7],
  ["proper_noun", 3],
  ["adposition", 3],
  ["pronoun", 2],
  ["determiner", 2],
  ["coordinating_conjunction", 2],
  ["interjection", 2],
  ["numeral", 2],
  ["auxiliary", 1],
  ["particle", 1.5],
  ["punctuation", 0.5],
];

const SYLLABLES = (
  "ab ac ad al am an ar as at ba be bi bo bra bri ca ce cha chi co con cor da de di do dra du el em en er es fa fe fi " +
  "fla fo fra ga ge gi gla go gra ha he hi ho in ir is ja ka ke la le li lo lu ma me mi mo mu na ne ni no nu o or pa pe " +
  "pi pla po pra pro qua ra re ri ro ru sa se sha si so sta ste stra su ta te ther ti to tra tri tu un ur va ve vi vo wa " +
  "we wi wo ya yo za ze"
).split(" ");
const ENDINGS = [
  "",
  "",
  "",
  "",
  "ness",
  "ment",
  "er",
  "ing",
  "ed",
  "ly",
  "ous",
  "ful",
  "ic",
  "tion",
  "able",
  "ish",
  "y",
];

export const MEANINGS = [
  "a small kind of bird",
  "a place where bread is baked",
  "to walk slowly",
  "very tired",
  "a quick look",
  "the edge of a river",
  "to agree after arguing",
  "cheerful and lively",
  "a tool for cutting wood",
  "to whisper",
  "someone who lends money",
  "a word for an old friend",
  "in other words",
  "an unexpected gift",
  "to fold neatly",
  "the morning meal",
  "rough, uneven",
  "a promise given in words",
  "the last part of a journey",
  "to borrow",
  "a heavy coat",
  "gentle rain",
  "the sound of bells",
  "a narrow street",
  "to look after",
  "a short sleep",
  "bright yellow",
  "the word used for greeting",
  "a bunch of flowers",
  "to hurry",
  "suddenly",
  "a shy person",
  "to forgive",
  "the top of a mountain",
  "by word of mouth",
  "a wooden box",
  "quietly",
  "a riddle or word game",
  "to shout",
  "the day after tomorrow",
  "a busy market",
  "to shiver",
  "a mild cheese",
  "far away",
];
export const NOTES = [
  "Heard it in a podcast.",
  "Formal register.",
  "Mostly spoken, rarely written.",
  "Careful: false friend.",
  "Irregular plural.",
  "Stress on the first syllable.",
  "Often used with 'to'.",
  "Slang, do not use at work.",
  "Opposite of the previous word.",
  "Seen in the news.",
  "Common in song lyrics.",
  "Key word for the exam.",
];
export const EXAMPLES: readonly (readonly [string, string])[] = [
  ["I wrote {} in my notebook.", "Ich habe {} in mein Heft geschrieben."],
  ["She used {} twice in one sentence.", "Sie hat {} zweimal in einem Satz benutzt."],
  ["Can you say {} more slowly?", "Kannst du {} langsamer sagen?"],
  ["The teacher explained {} again.", "Die Lehrerin hat {} noch einmal erklärt."],
  ["We saw {} on a sign at the station.", "Wir haben {} auf einem Schild am Bahnhof gesehen."],
  ["{} is harder than it looks.", "{} ist schwieriger, als es aussieht."],
  ["He always forgets {}.", "Er vergisst immer {}."],
  ["Is {} the right word here?", "Ist {} hier das richtige Wort?"],
];

export function wordFactory(random: Random) {
  const used = new Set<string>();
  return (): string => {
    for (let attempt = 0; ; attempt++) {
      const syllables = 2 + Math.floor(random() * (attempt > 20 ? 4 : 2));
      let word = "";
      for (let i = 0; i < syllables; i++) word += pick(random, SYLLABLES);
      word += pick(random, ENDINGS);
      if (random() < 0.06) word += ` ${pick(random, SYLLABLES)}${pick(random, SYLLABLES)}`; // a few two-word terms
      if (!used.has(word)) {
        used.add(word);
        return word;
      }
    }
  };
}
