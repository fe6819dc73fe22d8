import { describe, expect, it } from "vitest";
import { charDiff, checkAnswer, modeFor, parseModes, SUGGESTED_GRADE } from "#app/learning/review-modes.ts";
import { clozeOf } from "#app/learning/cloze.ts";
import { dayBounds, isTimeZone } from "#app/learning/time-zone.ts";

describe("typed answers", () => {
  it.each([
    ["café", "café", "fr", "exact"],
    ["café", " Cafe ", "fr", "close"],
    ["Straße", "strasse", "de", "close"],
    ["niño", "nino", "es", "wrong"], // ñ is its own letter in Spanish
    ["år", "ar", "sv", "wrong"], // and å in Swedish
    ["café", "cafard", "fr", "wrong"],
    ["café", "", "fr", "wrong"],
  ])("%j against %j in %s is %s", (expected, given, language, check) => {
    expect(checkAnswer(expected, given, language)).toBe(check);
  });

  it("shows letter by letter what was typed against the answer", () => {
    expect(charDiff("Straße", "Strase")).toEqual([
      { kind: "same", text: "Stra" },
      { kind: "extra", text: "s" },
      { kind: "missing", text: "ß" },
      { kind: "same", text: "e" },
    ]);
    expect(charDiff("çay", "çay")).toEqual([{ kind: "same", text: "çay" }]);
    expect(charDiff("ev", "")).toEqual([{ kind: "missing", text: "ev" }]);
    expect(charDiff("ağaç", "agac")).toEqual([
      { kind: "same", text: "a" },
      { kind: "extra", text: "g" },
      { kind: "missing", text: "ğ" },
      { kind: "same", text: "a" },
      { kind: "extra", text: "c" },
      { kind: "missing", text: "ç" },
    ]);
  });

  it("suggests Good for an exact answer, Hard for case or accents only, Again otherwise", () => {
    expect(SUGGESTED_GRADE).toEqual({ exact: "good", close: "hard", wrong: "again" });
  });
});

describe("cloze and modes", () => {
  it("blanks the term in its example whatever its case, or finds none", () => {
    expect(clozeOf("Take an Umbrella, it rains.", "umbrella")).toEqual({
      before: "Take an ",
      answer: "Umbrella",
      after: ", it rains.",
    });
    expect(clozeOf("Mind the step.", "puddle")).toBeNull();
  });

  it("turns through the learner's modes review after review, skipping those a term cannot do", () => {
    const term = { id: "00000000-0000-4000-8000-000000000000", reps: 0 };
    const all = parseModes("forward,reverse,typed,cloze");
    const seen = [0, 1, 2, 3].map((reps) => modeFor({ ...term, reps }, all, { cloze: true, meaning: true }));
    expect(new Set(seen).size).toBe(4);
    expect(modeFor(term, ["cloze"], { cloze: false, meaning: true })).toBe("forward");
    expect(modeFor(term, ["reverse", "cloze"], { cloze: false, meaning: false })).toBe("forward");
    expect(parseModes("bogus")).toEqual(["forward"]);
  });
});

describe("a learner's day", () => {
  it("starts at local midnight, also on daylight-saving days and where midnight is skipped", () => {
    const iso = (now: string, zone: string) => {
      const { start, end } = dayBounds(new Date(now), zone);
      return [start.toISOString(), end.toISOString()];
    };
    expect(iso("2026-03-29T12:00:00Z", "Europe/Berlin")).toEqual([
      "2026-03-28T23:00:00.000Z",
      "2026-03-29T22:00:00.000Z",
    ]);
    expect(iso("2026-11-01T12:00:00Z", "America/New_York")).toEqual([
      "2026-11-01T04:00:00.000Z",
      "2026-11-02T05:00:00.000Z",
    ]);
    expect(iso("2026-11-23T04:00:00Z", "Asia/Kathmandu")).toEqual([
      "2026-11-22T18:15:00.000Z",
      "2026-11-23T18:15:00.000Z",
    ]);
    // Santiago's clocks jump from 00:00 to 01:00: the day starts at 01:00.
    expect(iso("2026-09-06T12:00:00Z", "America/Santiago")[0]).toBe("2026-09-06T04:00:00.000Z");
  });

  it("knows zones by their IANA names", () => {
    expect(isTimeZone("Asia/Tokyo")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });
});
