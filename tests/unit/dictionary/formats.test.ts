import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  detectFormat,
  DictionaryFormatError,
  parseCedict,
  parseDictionary,
  parseJmdictJson,
  parseJmdictXml,
  parseTsv,
  parseWiktionary,
  partOfSpeechOf,
  pinyinMarks,
} from "#app/dictionary/formats.ts";
import { dictionaryKey } from "#app/dictionary/entries.server.ts";
import { PROJECT_ROOT } from "#tests/support/paths.ts";

const fixture = (name: string) => readFileSync(path.resolve(PROJECT_ROOT, "tests/fixtures/dictionaries", name), "utf8");

/** The line a parser rejects `text` at (null when it names none); fails when it accepts it. */
function rejectedAt(parse: () => unknown): { line: number | null; message: string } {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(DictionaryFormatError);
    return { line: (error as DictionaryFormatError).line, message: (error as Error).message };
  }
  throw new Error("the file was accepted");
}

describe("TSV", () => {
  it("reads headword, glosses, part of speech and lemma; skips comments and empty lines", () => {
    const { entries } = parseTsv(fixture("de-en.tsv"));
    expect(entries).toHaveLength(6);
    expect(entries[0]).toEqual({
      headword: "der Hund",
      lemma: null,
      partOfSpeech: "noun",
      reading: null,
      glosses: ["dog", "hound"],
    });
    // A form with no gloss of its own names its lemma.
    expect(entries[1]).toMatchObject({ headword: "Hunde", lemma: "der Hund", glosses: [] });
    expect(entries[4]).toMatchObject({ headword: "ging", lemma: "gehen", partOfSpeech: "verb" });
    expect(entries[5]).toMatchObject({ headword: "schnell", partOfSpeech: "adjective" });
  });

  it.each([
    ["Hund\tdog\nKatze cat\n", 2, "expected a headword, a tab and a gloss"],
    ["Hund\tdog\n\n# c\n\tcat\n", 4, "no headword"],
    ["Hund\tdog\nKatze\t\tnoun\n", 2, "no gloss"],
    ["a\tb\tnoun\tx\ty\n", 1, "expected at most 4"],
    [`${"x".repeat(201)}\tlong\n`, 1, "headword longer than 200"],
  ])("rejects a malformed line with its number (%#)", (text, line, message) => {
    const rejected = rejectedAt(() => parseTsv(text));
    expect(rejected.line).toBe(line);
    expect(rejected.message).toContain(`line ${line}: ${message}`);
  });
});

describe("Wiktionary JSON lines (kaikki.org)", () => {
  it("reads words with their glosses, their forms as entries of the word, and form-of senses as lemmas", () => {
    const { entries, skipped } = parseWiktionary(fixture("de-en.kaikki.jsonl"), "de");
    const katze = entries.find((entry) => entry.headword === "Katze")!;
    expect(katze).toEqual({
      headword: "Katze",
      lemma: null,
      partOfSpeech: "noun",
      reading: null,
      glosses: ["cat", "female cat, queen"],
    });
    // "die" is an inflection table's header, not a form; "Katze" is the word itself.
    expect(entries.filter((entry) => entry.lemma === "Katze").map((entry) => entry.headword)).toEqual(["Katzen"]);
    expect(entries.filter((entry) => entry.lemma === "laufen").map((entry) => entry.headword)).toEqual([
      "läuft",
      "lief",
      "gelaufen",
      "lief",
    ]);
    expect(entries.find((entry) => entry.headword === "Hallo")).toMatchObject({ partOfSpeech: "interjection" });
    // The English word and the entry without a gloss.
    expect(skipped).toBe(2);
  });

  it.each([
    ['{"word":"a","senses":[{"glosses":["x"]}]}\n{"word":"b",\n', 2, "not JSON"],
    ['{"word":"a","senses":[]}\n\n[1,2]\n', 3, "not a JSON object"],
    ['{"senses":[{"glosses":["x"]}]}\n', 1, 'no "word"'],
    ['{"word":"a","senses":{"glosses":["x"]}}\n', 1, '"senses" is not a list'],
    ['{"word":"a","senses":[{"glosses":"x"}]}\n', 1, '"glosses" is not a list'],
  ])("rejects a malformed line with its number (%#)", (text, line, message) => {
    const rejected = rejectedAt(() => parseWiktionary(text, "de"));
    expect(rejected.line).toBe(line);
    expect(rejected.message).toContain(message);
  });
});

describe("CC-CEDICT", () => {
  it("reads simplified and traditional headwords with pinyin in tone marks", () => {
    const { entries } = parseCedict(fixture("cedict_ts.u8"));
    expect(entries.map((entry) => entry.headword)).toEqual(["你好", "学生", "學生", "咖啡", "绿", "綠"]);
    expect(entries[0]).toEqual({
      headword: "你好",
      lemma: null,
      partOfSpeech: null,
      reading: "nǐ hǎo",
      glosses: ["hello", "hi"],
    });
    expect(entries[1]!.reading).toBe("xué sheng");
    expect(entries[3]!.glosses).toEqual(["coffee (loanword)", "CL:杯[bei1]"]);
    expect(entries[4]!.reading).toBe("lǜ");
  });

  it("puts tone marks where pinyin does", () => {
    expect(pinyinMarks("zhong1 guo2")).toBe("zhōng guó");
    expect(pinyinMarks("gou3 liu4")).toBe("gǒu liù");
    expect(pinyinMarks("xie4 xie5")).toBe("xiè xie");
    expect(pinyinMarks("Bei3 jing1")).toBe("Běi jīng");
  });

  it("rejects a malformed line with its number", () => {
    const text = `${fixture("cedict_ts.u8")}貓 猫 mao1 /cat/\n`;
    const rejected = rejectedAt(() => parseCedict(text));
    expect(rejected.line).toBe(text.split("\n").length - 1);
    expect(rejectedAt(() => parseCedict("你好 你好 [ni3 hao3] //\n")).message).toContain("line 1: no gloss");
  });
});

describe("JMdict", () => {
  it("reads the XML: written forms and readings, glosses in the target language, parts of speech by entity", () => {
    const { entries, skipped } = parseJmdictXml(fixture("JMdict_e.xml"), "en");
    expect(skipped).toBe(0);
    expect(entries.map((entry) => entry.headword)).toEqual(["飲む", "のむ", "水", "みず", "赤い", "あかい"]);
    expect(entries[0]).toEqual({
      headword: "飲む",
      lemma: null,
      partOfSpeech: "verb",
      reading: "のむ",
      glosses: ["to drink", "to gulp"],
    });
    expect(entries[1]!.reading).toBeNull();
    expect(entries[4]).toMatchObject({ partOfSpeech: "adjective", glosses: ["red", "crimson & scarlet"] });
    // German glosses of the multilingual file.
    const german = parseJmdictXml(fixture("JMdict_e.xml"), "de");
    expect(german.entries.map((entry) => entry.glosses)).toEqual([["trinken"], ["trinken"]]);
    expect(german.skipped).toBe(2);
  });

  it("rejects an entry left open or without a reading, with its line", () => {
    const open = fixture("JMdict_e.xml").replace(
      "</sense>\n</entry>\n<entry>\n<ent_seq>1372570",
      "</sense>\n<entry>\n<ent_seq>1372570",
    );
    expect(rejectedAt(() => parseJmdictXml(open, "en"))).toMatchObject({ line: 10 });
    const noReading = fixture("JMdict_e.xml").replace("<reb>みず</reb>", "");
    expect(rejectedAt(() => parseJmdictXml(noReading, "en")).line).toBe(26);
    expect(rejectedAt(() => parseJmdictXml("<JMdict></JMdict>", "en")).message).toContain("no <entry>");
  });

  it("reads jmdict-simplified's JSON and rejects a broken one with its line", () => {
    const { entries } = parseJmdictJson(fixture("jmdict-eng-sample.json"), "en");
    expect(entries).toEqual([
      { headword: "飲む", lemma: null, partOfSpeech: "verb", reading: "のむ", glosses: ["to drink"] },
      { headword: "のむ", lemma: null, partOfSpeech: "verb", reading: null, glosses: ["to drink"] },
      { headword: "おはよう", lemma: null, partOfSpeech: "interjection", reading: null, glosses: ["good morning"] },
    ]);
    const broken = fixture("jmdict-eng-sample.json").replace('"text": "to drink" }', '"text": "to drink" ');
    expect(rejectedAt(() => parseJmdictJson(broken, "en")).line).toBe(25);
    expect(rejectedAt(() => parseJmdictJson('{"words":[{"id":"7","kana":[]}]}', "en")).message).toContain(
      'word 1 (id 7): no "kana"',
    );
  });
});

describe("formats and keys", () => {
  it("tells the format from the name, else from the content", () => {
    expect(detectFormat("cedict_1_0_ts_utf-8_mdbg.txt", "")).toBe("cedict");
    expect(detectFormat("kaikki.org-dictionary-German.jsonl", "")).toBe("wiktionary");
    expect(detectFormat("JMdict_e", "<?xml")).toBe("jmdict");
    expect(detectFormat("jmdict-eng-3.6.1.json", "{")).toBe("jmdict-json");
    expect(detectFormat("words.txt", '{"word":"a"}\n{"word":"b"}')).toBe("wiktionary");
    expect(detectFormat("words.txt", "Hund\tdog")).toBe("tsv");
    expect(parseDictionary("tsv", "Hund\tdog", "de", "en").entries).toHaveLength(1);
  });

  it("maps the formats' parts of speech to the app's", () => {
    expect(partOfSpeechOf("v5k")).toBe("verb");
    expect(partOfSpeechOf("adj-na")).toBe("adjective");
    expect(partOfSpeechOf("prep")).toBe("adposition");
    expect(partOfSpeechOf("Noun")).toBe("noun");
    expect(partOfSpeechOf("exp")).toBeNull();
  });

  it("looks words up lower-cased without their article", () => {
    expect(dictionaryKey("de", "der Hund")).toBe("hund");
    expect(dictionaryKey("de", "Hund")).toBe("hund");
    expect(dictionaryKey("fr", "l’eau")).toBe("eau");
    expect(dictionaryKey("tr", "İstanbul")).toBe("istanbul");
    expect(dictionaryKey("zh", "你好")).toBe("你好");
  });
});
