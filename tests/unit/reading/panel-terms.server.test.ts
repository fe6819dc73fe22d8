import { describe, expect, it } from "vitest";
import { readChoice } from "#app/reading/panel-terms.server.ts";

describe("the meaning a button of the word panel sends (choice)", () => {
  it("reads the part of speech and the gloss", () => {
    expect(readChoice("noun|dog")).toEqual({ meaning: "dog", partOfSpeech: "noun" });
    expect(readChoice("|to drink")).toEqual({ meaning: "to drink", partOfSpeech: null });
    // A gloss may hold a bar of its own: only the first one parts them.
    expect(readChoice("noun|a|b")).toEqual({ meaning: "a|b", partOfSpeech: "noun" });
  });

  it("is nothing when no meaning was pressed, and bounds what it reads", () => {
    expect(readChoice("")).toBeNull();
    expect(readChoice("|  ")).toBeNull();
    expect(readChoice("dog")).toBeNull();
    // An unknown part of speech is dropped, not stored; a gloss is cut at the meaning's 500 characters.
    expect(readChoice("spaceship|dog")).toEqual({ meaning: "dog", partOfSpeech: null });
    expect(readChoice(`noun|${"x".repeat(2000)}`)?.meaning).toHaveLength(500);
  });
});
