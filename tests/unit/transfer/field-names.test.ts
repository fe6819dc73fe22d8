import { describe, expect, it } from "vitest";
import { readTable } from "#app/transfer/import-file.server.ts";
import { guessMapping } from "#app/transfer/import-rows.server.ts";

/** The mapping guessed for a deck's field names, with one row of cells. */
const guess = (headers: string[], cells: string[] = headers.map(() => "x")) =>
  guessMapping({ kind: "apkg", headers, rows: [{ line: 1, cells }], html: true });

describe("guessing what a deck's fields are", () => {
  it("maps the common shared-deck layouts as a learner would", () => {
    expect(guess(["Front", "Back"])).toEqual(["text", "meaning"]);
    expect(guess(["Question", "Answer", "Precision"])).toEqual(["text", "meaning", "notes"]);
    expect(guess(["Expression", "Reading", "Meaning"])).toEqual(["text", "reading", "meaning"]);
    expect(guess(["Hanzi", "Pinyin", "English"])).toEqual(["text", "reading", "meaning"]);
    expect(guess(["Word", "Definition", "Example"])).toEqual(["text", "meaning", "example"]);
    expect(
      guess([
        "Vocabulary-Kanji",
        "Vocabulary-Furigana",
        "Vocabulary-Kana",
        "Vocabulary-English",
        "Vocabulary-Audio",
        "Vocabulary-Pos",
        "Caution",
        "Expression",
        "Reading",
        "Sentence-Kana",
        "Sentence-English",
        "Notes",
      ]),
    ).toEqual([
      "text",
      "ignore",
      "reading",
      "meaning",
      "ignore",
      "partOfSpeech",
      "ignore",
      "ignore",
      "ignore",
      "example",
      "ignore",
      "notes",
    ]);
  });

  it("knows the names in the seven interface languages", () => {
    expect(guess(["Recto", "Verso", "Remarque"])).toEqual(["text", "meaning", "notes"]);
    expect(guess(["Question", "Réponse", "Précision"])).toEqual(["text", "meaning", "notes"]);
    expect(guess(["Wort", "Bedeutung", "Beispielsatz"])).toEqual(["text", "meaning", "example"]);
    expect(guess(["Palabra", "Traducción", "Notas"])).toEqual(["text", "meaning", "notes"]);
    expect(guess(["Kelime", "Anlam", "Örnek"])).toEqual(["text", "meaning", "example"]);
    expect(guess(["Слово", "Переклад", "Примітка"])).toEqual(["text", "meaning", "notes"]);
    expect(guess(["单词", "释义", "例句"])).toEqual(["text", "meaning", "example"]);
  });

  it("takes the first field as the term and the next as the meaning where no name says so, media aside", () => {
    expect(guess(["Japonais", "Français"])).toEqual(["text", "meaning"]);
    expect(guess(["Audio", "Kanji", "Bild", "Deutsch"])).toEqual(["ignore", "text", "ignore", "meaning"]);
    expect(guess(["A", "B", "C"], ["[sound:a.mp3]", "猫", "chat"])).toEqual(["ignore", "text", "meaning"]);
    expect(guess(["Sentence", "Sentence-English", "Audio"])).toEqual(["text", "meaning", "ignore"]);
  });

  it("reads a first row of such names as a header", async () => {
    const table = await readTable("Question;Réponse\nせんしゅう;la semaine dernière\n");
    expect(table.headers).toEqual(["Question", "Réponse"]);
    expect(guessMapping(table)).toEqual(["text", "meaning"]);
  });
});
