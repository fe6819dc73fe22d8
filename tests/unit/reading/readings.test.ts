import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dictionaryPaths, JIEBA_ID, KUROMOJI_ID, loadAnalyser } from "#app/reading/analysers.server.ts";
import { matchWords } from "#app/reading/match.ts";
import { readerView } from "#app/reading/reader.server.ts";
import { furigana, packRuby, pinyinRuby, rubyOf, toHiragana, unpackRuby } from "#app/reading/readings.ts";
import {
  parseSegmentation,
  segmentationNow,
  segmenterOf,
  segmentText,
  setAnalyser,
  storedSegmentation,
  wordsOf,
} from "#app/reading/segment.ts";

/** Each word with its reading as the reader lays it: 飲[の]みました. */
const laid = (language: string, text: string) => {
  const segmented = segmentText(language, text);
  return segmented.words.map((word, i) =>
    (rubyOf(language, word, segmented.readings?.[i]) ?? [[word, ""]])
      .map(([base, rt]) => (rt ? `${base}[${rt}]` : base))
      .join(""),
  );
};

describe("furigana", () => {
  it("puts the reading over the kanji only, anchored by the kana of the word", () => {
    expect(furigana("飲みました", "ノミマシタ")).toEqual([
      ["飲", "の"],
      ["みました", ""],
    ]);
    expect(furigana("お茶", "おちゃ")).toEqual([
      ["お", ""],
      ["茶", "ちゃ"],
    ]);
    expect(furigana("取り扱い", "とりあつかい")).toEqual([
      ["取", "と"],
      ["り", ""],
      ["扱", "あつか"],
      ["い", ""],
    ]);
    expect(furigana("日本語", "ニホンゴ")).toEqual([["日本語", "にほんご"]]);
  });

  it("gives kana nothing, and a reading the kana cannot anchor to the whole word", () => {
    expect(furigana("ありがとう", "アリガトウ")).toEqual([["ありがとう", ""]]);
    expect(rubyOf("ja", "ありがとう", "ありがとう")).toBeNull();
    expect(furigana("飲みます", "たべる")).toEqual([["飲みます", "たべる"]]);
    expect(toHiragana("ヴァイオリン・ケーキ")).toBe("ゔぁいおりん・けーき");
  });
});

describe("pinyin", () => {
  it("puts one syllable with its tone mark over each Han character", () => {
    expect(pinyinRuby("你好", "nǐ hǎo")).toEqual([
      ["你", "nǐ"],
      ["好", "hǎo"],
    ]);
    expect(pinyinRuby("A股", "gǔ")).toEqual([
      ["A", ""],
      ["股", "gǔ"],
    ]);
    expect(rubyOf("zh", "ABC", null)).toBeNull();
    const ruby = pinyinRuby("A股", "gǔ");
    expect(unpackRuby(packRuby(ruby))).toEqual(ruby);
  });
});

describe("with the analysers installed", () => {
  beforeAll(async () => {
    const [ja, zh] = await Promise.all([loadAnalyser("ja"), loadAnalyser("zh")]);
    setAnalyser("ja", ja);
    setAnalyser("zh", zh);
  }, 30_000);
  afterAll(() => {
    setAnalyser("ja", null);
    setAnalyser("zh", null);
  });

  it("cuts Japanese into IPADIC's words, a verb with its endings as one word", () => {
    expect(segmenterOf("ja")).toBe(KUROMOJI_ID);
    expect(segmentText("ja", "昨日、友達と水を飲みました。").words).toEqual([
      "昨日",
      "友達",
      "と",
      "水",
      "を",
      "飲みました",
    ]);
    expect(segmentText("ja", "東京に住んでいます。").words).toEqual(["東京", "に", "住んでいます"]);
    expect(wordsOf("ja", "飲みました")).toEqual(["飲みました"]);
  });

  it("gives Japanese words furigana in hiragana over their kanji only", () => {
    expect(laid("ja", "昨日、友達と水を飲みました。")).toEqual([
      "昨日[きのう]",
      "友達[ともだち]",
      "と",
      "水[みず]",
      "を",
      "飲[の]みました",
    ]);
    expect(laid("ja", "これはカタカナです")).toEqual(["これ", "は", "カタカナ", "です"]);
  });

  it("cuts Chinese into jieba's words with pinyin and tone marks", () => {
    expect(segmenterOf("zh")).toBe(JIEBA_ID);
    expect(laid("zh", "我们在学习中文。今天天气很好！")).toEqual([
      "我[wǒ]们[men]",
      "在[zài]",
      "学[xué]习[xí]",
      "中[zhōng]文[wén]",
      "今[jīn]天[tiān]天[tiān]气[qì]",
      "很[hěn]",
      "好[hǎo]",
    ]);
    // The reading of a character that has several follows the word: 银行 is yín háng, 行走 xíng zǒu.
    expect(laid("zh", "银行，行走")).toEqual(["银[yín]行[háng]", "行[xíng]走[zǒu]"]);
  });

  it("keeps the segmentation, with its readings and its segmenter, in the stored form", () => {
    const found = segmentationNow("ja", "水を飲みました。\n\nお茶も。");
    expect(found.by).toBe(KUROMOJI_ID);
    expect(parseSegmentation(storedSegmentation(found))).toEqual(found);
    expect(found.readings).toEqual(["みず", null, "のみました", "おちゃ", null]);
    // The platform's segmentation is stored as bare offsets, as before.
    const platform = segmentationNow("de", "Der Hund schläft.");
    expect(storedSegmentation(platform)).toBe(JSON.stringify(platform.offsets));
    expect(parseSegmentation(storedSegmentation(platform))).toEqual(platform);
  });

  it("matches a term to the words of a text cut the same way, and shows or hides the readings", () => {
    const text = segmentText("ja", "毎日お茶を飲みました。");
    const matches = matchWords("ja", text, [{ text: "飲みました", stage: "tolearn", termId: "t1" }]);
    expect(matches.map((m) => m.stage)).toEqual(["new", "new", "new", "tolearn"]);
    const shown = readerView({ title: "t", language: "ja", text, vocabulary: [], matches }, new URLSearchParams());
    const verb = shown.view.paragraphs[0]!.find((piece) => typeof piece !== "string" && piece.term);
    expect(verb).toMatchObject({ text: "飲みました" });
    expect(unpackRuby((verb as { ruby: string }).ruby)).toEqual([
      ["飲", "の"],
      ["みました", ""],
    ]);
    const hidden = readerView(
      { title: "t", language: "ja", text, vocabulary: [], matches, readings: false },
      new URLSearchParams(),
    );
    expect(hidden.view.paragraphs.flat().some((piece) => typeof piece !== "string" && piece.ruby)).toBe(false);
  });
});

describe("without the dictionaries", () => {
  const empty = mkdtempSync(path.join(tmpdir(), "readings-"));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it("finds no analyser, and the platform's segmenter cuts the text without readings", async () => {
    const paths = dictionaryPaths(empty);
    expect(await loadAnalyser("ja", paths)).toBeNull();
    expect(await loadAnalyser("zh", paths)).toBeNull();
    expect(segmenterOf("ja")).toBe("intl");
    const text = segmentText("ja", "水を飲みました。");
    expect(text.words).toEqual(["水", "を", "飲", "み", "ま", "した"]);
    expect(text.readings).toBeNull();
  });
});
