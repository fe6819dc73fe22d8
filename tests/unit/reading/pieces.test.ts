import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAnalyser } from "#app/reading/analysers.server.ts";
import { ANALYSER_PIECE, piecesOf } from "#app/reading/pieces.ts";
import {
  PLATFORM_SEGMENTER,
  segmentationOf,
  segmentText,
  setAnalyser,
  wordsOf,
  type Analyser,
} from "#app/reading/segment.ts";

/** Ordinary Japanese prose: sentences ending in 。！？, quotes, numbers, Latin letters, katakana, full-width spaces. */
const JAPANESE = [
  "昨日、友達と駅の近くの喫茶店で美味しいコーヒーを飲みました。",
  "本当に美味しかったです！",
  "あなたも一緒に行きませんか？",
  "先生は「明日は雨が降るでしょう」と言いました。",
  "東京タワーの高さは333メートルです。",
  "私は毎朝六時に起きて、公園を散歩してから朝ご飯を食べます。",
  "最近はJavaScriptとPythonを勉強しています。",
  "日本語を勉強するのは難しいですが、とても楽しいと思います。",
  "週末は家族と一緒に山へ行って、きれいな景色を見たいです。",
  "駅前の新しいレストランは、いつも人でいっぱいだそうです。",
  "どうしてそんなに急いでいるのですか？　まだ時間はありますよ。",
  "先生は学生たちに新しい漢字の読み方を丁寧に教えてくれました。",
  "彼女はピアノを弾きながら歌うのが上手です。",
  "来年の春、京都へ桜を見に行くつもりです！",
].join("");

/** Ordinary Chinese prose, with ，。！？ */
const CHINESE = [
  "昨天我和朋友在学校附近的咖啡馆喝了一杯咖啡。",
  "我每天早上六点起床，先去公园散步，然后吃早饭。",
  "学习中文虽然很难，但是我觉得非常有意思！",
  "你周末想和我们一起去山上看风景吗？",
  "老师耐心地教学生们新汉字的读音和意思。",
  "这家新开的饭馆每天晚上都有很多人。",
  "北京的冬天很冷，夏天却非常热。",
].join("");

const IS_WORD = /^(?=.*\p{L})(?!.*\p{Nd})/su;

/** A line's words and readings as the analyser finds them given the whole line at once (the cut before pieces). */
function wholeLine(analyser: Analyser, line: string) {
  const found = analyser.words(line).filter((word) => IS_WORD.test(word.text));
  return { words: found.map((word) => word.text.toLowerCase()), readings: found.map((word) => word.reading) };
}

/** The analyser, remembering the longest input it was given. */
function watched(analyser: Analyser) {
  const seen = { longest: 0 };
  const watching: Analyser = {
    id: analyser.id,
    words: (line) => {
      seen.longest = Math.max(seen.longest, line.length);
      return analyser.words(line);
    },
  };
  return { watching, seen };
}

describe("a line in pieces", () => {
  it("leaves a line that fits whole, and cuts a longer one after a sentence end, then punctuation or space", () => {
    expect(piecesOf("水を飲みました。", 8)).toEqual([[0, 8]]);
    expect(piecesOf("", 8)).toEqual([[0, 0]]);
    // Within the first 8: 。 at 3 and 、 at 6, and the sentence end wins; within the next 8 only the comma.
    expect(piecesOf("あいう。かき、くけこさしす", 8).map(([a, b]) => "あいう。かき、くけこさしす".slice(a, b))).toEqual(
      ["あいう。", "かき、", "くけこさしす"],
    );
    const spaced = "alpha beta gamma delta";
    expect(piecesOf(spaced, 12).map(([a, b]) => spaced.slice(a, b))).toEqual(["alpha beta ", "gamma delta"]);
  });

  it("cuts at the length only where there is nothing else, never inside a surrogate pair, joining to the line", () => {
    expect(piecesOf("a".repeat(20), 8)).toEqual([
      [0, 8],
      [8, 16],
      [16, 20],
    ]);
    const emoji = `abcdefg${"𩸽".repeat(5)}`;
    const pieces = piecesOf(emoji, 8);
    expect(pieces[0]).toEqual([0, 7]);
    expect(pieces.map(([a, b]) => emoji.slice(a, b)).join("")).toBe(emoji);
    for (const [a, b] of pieces) expect(b - a).toBeLessThanOrEqual(8);
  });
});

describe("a text of one long line, with the analysers installed", () => {
  let ja: Analyser;
  let zh: Analyser;
  beforeAll(async () => {
    [ja, zh] = (await Promise.all([loadAnalyser("ja"), loadAnalyser("zh")])) as [Analyser, Analyser];
  }, 30_000);
  afterAll(() => {
    setAnalyser("ja", null);
    setAnalyser("zh", null);
  });

  it.each([
    ["Japanese", "ja", () => ja, JAPANESE],
    ["Chinese", "zh", () => zh, CHINESE],
  ])("segments ordinary %s written as one line as the analyser does given the whole line", (_, language, of, prose) => {
    const line = prose.repeat(4);
    expect(line.length).toBeGreaterThan(2 * ANALYSER_PIECE);
    const { watching, seen } = watched(of());
    setAnalyser(language, watching);
    const text = segmentText(language, line);
    expect(seen.longest).toBeLessThanOrEqual(ANALYSER_PIECE);
    const before = wholeLine(of(), line);
    expect(text.words).toEqual(before.words);
    expect(text.readings).toEqual(before.readings);
    expect(text.readings?.some((reading) => reading !== null)).toBe(true);
  });

  it.each([
    ["20,000 Latin letters", "a".repeat(20_000)],
    ["16,000 characters of Japanese prose", JAPANESE.repeat(50).slice(0, 16_000)],
    ["16,000 kanji", "漢字".repeat(8_000)],
  ])("gives the analyser %s in pieces of at most ANALYSER_PIECE, nothing lost", async (_, line) => {
    const { watching, seen } = watched(ja);
    setAnalyser("ja", watching);
    const found = await segmentationOf("ja", line);
    expect(seen.longest).toBeLessThanOrEqual(ANALYSER_PIECE);
    expect(found.by).toBe(ja.id);
    expect(found.offsets).toHaveLength(1);
    let covered = 0;
    for (const [, , ...spans] of found.offsets[0]!) for (let k = 1; k < spans.length; k += 2) covered += spans[k]!;
    expect(covered).toBeGreaterThan(line.length / 2);
    expect(wordsOf("ja", line.slice(0, 3 * ANALYSER_PIECE)).length).toBeGreaterThan(0);
  });

  it("cuts the text with the platform's segmenter, without readings, when the analyser misses its deadline", async () => {
    setAnalyser("ja", ja);
    const line = JAPANESE.repeat(4);
    const late = await segmentationOf("ja", line, 10, -1);
    expect(late.by).toBe(PLATFORM_SEGMENTER);
    expect(late.readings).toBeNull();
    expect(late.offsets[0]!.length).toBeGreaterThan(10);
    const inTime = await segmentationOf("ja", line);
    expect(inTime.by).toBe(ja.id);
  });
});
