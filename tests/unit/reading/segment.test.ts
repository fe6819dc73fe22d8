import { describe, expect, it } from "vitest";
import { indexVocabulary, matchIndexed, matchWords, statsOf, type VocabularyEntry } from "#app/reading/match.ts";
import { lowerFor, pagesOf, segmentedFrom, segmentOffsets, segmentText, wordsFrom } from "#app/reading/segment.ts";
import { STUDY_LANGUAGES } from "#app/learning/vocabulary.ts";

const words = (language: string, text: string) => segmentText(language, text).words;
const term = (text: string, stage: VocabularyEntry["stage"] = "tolearn"): VocabularyEntry => ({
  text,
  stage,
  termId: stage === "ignored" ? null : `id-${text}`,
});
/** Each word with its stage, a multi-word unit written once. */
function stagesOf(language: string, text: string, vocabulary: VocabularyEntry[]) {
  const segmented = segmentText(language, text);
  const matches = matchWords(language, segmented, vocabulary);
  return matches.flatMap((match, i) =>
    match.start === i ? [`${segmented.words.slice(i, i + match.length).join(" ")}:${match.stage}`] : [],
  );
}

describe("segmentation with Intl.Segmenter", () => {
  it.each([
    ["Latin", "en", "The cat didn't sleep, did it?", ["the", "cat", "didn't", "sleep", "did", "it"]],
    ["Cyrillic", "uk", "Кіт спить на дивані.", ["кіт", "спить", "на", "дивані"]],
    ["Greek", "el", "Η γάτα κοιμάται στον καναπέ.", ["η", "γάτα", "κοιμάται", "στον", "καναπέ"]],
    ["Arabic", "ar", "القطة نائمة على الأريكة.", ["القطة", "نائمة", "على", "الأريكة"]],
    ["Chinese", "zh", "我喜欢吃冰淇淋。", ["我", "喜欢", "吃", "冰淇淋"]],
    ["Japanese", "ja", "東京に住んでいます。", ["東京", "に", "住", "んで", "い", "ます"]],
  ])("finds the words of %s text", (_script, language, text, expected) => {
    expect(words(language, text)).toEqual(expected);
  });

  it("splits Chinese and Japanese sentences without spaces into several words each", () => {
    expect(words("zh", "今天天气很好，我们去公园散步吧。").length).toBeGreaterThan(5);
    expect(words("ja", "私は毎朝コーヒーを飲みます。").length).toBeGreaterThan(4);
  });

  it("does not count punctuation or numbers as words", () => {
    expect(words("en", "In 2024, 3.5 % — yes! 42")).toEqual(["in", "yes"]);
    expect(words("fr", "« Bonjour ! » … 12h30")).toEqual(["bonjour"]);
  });

  it("keeps lines as paragraphs and sentences whole, numbering every word", () => {
    const text = segmentText("en", "One two. Three!\n\nFour five.");
    expect(text.paragraphs.map((p) => p.map((s) => s.text))).toEqual([["One two.", "Three!"], ["Four five."]]);
    expect(text.paragraphs[1]![0]!.pieces).toEqual([{ text: "Four", word: 3 }, " ", { text: "five", word: 4 }, "."]);
  });

  it("pages a long text at sentence ends after about 500 words", () => {
    const text = segmentText("en", "One two three four five six seven eight nine ten. ".repeat(120));
    const pages = pagesOf(text);
    expect(pages.map((p) => [p.firstWord, p.lastWord])).toEqual([
      [0, 499],
      [500, 999],
      [1000, 1199],
    ]);
    expect(pagesOf(segmentText("en", "")).length).toBe(1);
  });
});

describe("matching words against the learner's terms", () => {
  it("is case-insensitive by the rules of the language: Turkish dotted and dotless i", () => {
    expect(words("tr", "İstanbul IŞIK")).toEqual(["istanbul", "ışık"]);
    expect(stagesOf("tr", "İstanbul'da ışık var. ISTAKOZ", [term("istanbul'da"), term("IŞIK", "learned")])).toEqual([
      "istanbul'da:tolearn",
      "ışık:learned",
      "var:new",
      "ıstakoz:new",
    ]);
    // English rules: the same capital I lowers to a dotted i.
    expect(stagesOf("en", "INK", [term("ink")])).toEqual(["ink:tolearn"]);
    expect(stagesOf("de", "STRASSE Straße", [term("straße")])).toEqual(["strasse:new", "straße:tolearn"]);
  });

  it("recognises multi-word terms as one unit, the longest first, only across spaces", () => {
    const vocabulary = [term("ice"), term("ice cream", "inprogress"), term("ice cream cone", "learned")];
    expect(stagesOf("en", "Ice cream cone, ice cream, ice. Ice, cream.", vocabulary)).toEqual([
      "ice cream cone:learned",
      "ice cream:inprogress",
      "ice:tolearn",
      "ice:tolearn",
      "cream:new",
    ]);
  });

  it("recognises a multi-word term in a script without spaces", () => {
    expect(stagesOf("ja", "東京に住んでいます。", [term("住んで", "needsreview")])).toContain("住 んで:needsreview");
  });

  it("recognises a word alone from a term stored with its article, whatever the case or article", () => {
    expect(stagesOf("de", "Der Hund sieht den Hund. HUND!", [term("der Hund")])).toEqual([
      "der hund:tolearn",
      "sieht:new",
      "den:new",
      "hund:tolearn",
      "hund:tolearn",
    ]);
    expect(stagesOf("es", "Mi casa es tu casa.", [term("la casa", "learned")])).toEqual([
      "mi:new",
      "casa:learned",
      "es:new",
      "tu:new",
      "casa:learned",
    ]);
    // The word's own term wins; a term that is not article + word marks nothing alone.
    expect(stagesOf("de", "Hund", [term("der Hund"), term("Hund", "learned")])).toEqual(["hund:learned"]);
    expect(stagesOf("en", "cream", [term("ice cream")])).toEqual(["cream:new"]);
  });

  it("marks ignored words, and a term wins over an ignored word of the same text", () => {
    expect(stagesOf("en", "the cat", [term("the", "ignored"), term("cat", "ignored"), term("Cat")])).toEqual([
      "the:ignored",
      "cat:tolearn",
    ]);
  });

  it("counts unknown (new) and known (learned or ignored) running words", () => {
    const segmented = segmentText("en", "a b c d a");
    const stats = statsOf(matchWords("en", segmented, [term("a", "learned"), term("b", "ignored"), term("c")]));
    expect(stats).toEqual({ words: 5, unknown: 1, learning: 1, known: 3, knownShare: 0.6 });
  });
});

describe("stored segmentation and the vocabulary index (ADR 032)", () => {
  const bodies = [
    "I ate ice cream in the park. The park was quiet.\n\nThen it rained, and the ice cream melted.",
    "  Hello  world!  How are you?\r\n\r\n  x 12 y\n",
    "O'Neil's dog—barked. 3pm ok.  ",
    "ice\ncream. ice  cream",
  ];
  it("draws the same words, sentences and gaps from stored offsets as the segmenter does", async () => {
    for (const body of [...bodies, "我今天在公园里吃了冰淇淋。他说：“好！”\n\n明天见"]) {
      for (const language of ["en", "zh", "tr"]) {
        const offsets = await segmentOffsets(language, JSON.parse(JSON.stringify(body)) as string);
        const stored = JSON.parse(JSON.stringify(offsets)) as typeof offsets;
        expect(segmentedFrom(language, body, stored)).toEqual(segmentText(language, body));
        const { words: only, joined } = wordsFrom(language, body, stored);
        expect({ words: only, joined }).toEqual({
          words: segmentText(language, body).words,
          joined: segmentText(language, body).joined,
        });
      }
    }
  });

  it("matches through an index without stages, the stages of the moment given at render", () => {
    const index = indexVocabulary("en", [term("ice cream"), term("park"), term("quiet", "ignored")]);
    const text = segmentText("en", bodies[0]!);
    const matches = matchIndexed(index, text, (id) => (id === "id-park" ? "learned" : undefined));
    expect(matches.map((m) => m.stage)).toEqual(
      matchWords("en", text, [term("ice cream"), term("park", "learned"), term("quiet", "ignored")]).map(
        (m) => m.stage,
      ),
    );
  });

  it("matches Chinese terms through the index in one pass, however many terms share a first word", () => {
    const vocabulary = [term("冰淇淋"), term("公园")];
    for (let i = 0; i < 5_000; i++) vocabulary.push(term(`我${"的".repeat(1 + (i % 3))}${i}号`));
    const index = indexVocabulary("zh", vocabulary);
    const text = segmentText("zh", "我今天在公园里吃了冰淇淋。".repeat(400));
    const started = performance.now();
    const matches = matchIndexed(index, text);
    expect(performance.now() - started).toBeLessThan(200);
    expect(matches.filter((m, i) => m.start === i && m.stage === "tolearn")).toHaveLength(800);
  });
});

describe("lowerFor", () => {
  const samples = ["İstanbul IRMAK", "ΟΔΟΣ Σ", "STRAẞE Äpfel", "ĮÌ Ĩ J̃", "ǅemal Ǉ", "ÉCOLE Ñandú", "ПРИВІТ Ёж"];
  it("lowers every study language as the language's own rules do", () => {
    for (const language of STUDY_LANGUAGES)
      for (const text of samples) expect(lowerFor(language, text), language).toBe(text.toLocaleLowerCase(language));
  });
  it("keeps Turkish dotted and dotless i apart", () => {
    expect(lowerFor("tr", "İI")).toBe("iı");
    expect(lowerFor("de", "İI")).toBe("i̇i");
  });
});
