import { describe, expect, it } from "vitest";
import { mapRows } from "#app/transfer/import-rows.server.ts";
import { readingApart } from "#app/transfer/readings.ts";

describe("a reading held in a deck's meaning", () => {
  it("is split from the meaning when an element holds only kana or pinyin", () => {
    expect(readingApart("先週", '<span class="reading">せんしゅう</span> la semaine dernière')).toEqual({
      reading: "せんしゅう",
      meaning: "<br> la semaine dernière",
    });
    expect(readingApart("你好", "hello<div>nǐ hǎo</div>")?.reading).toBe("nǐ hǎo");
    expect(readingApart("你好", "<i>ni3 hao3</i><br>hello")?.reading).toBe("ni3 hao3");
  });

  it("is left alone for other terms, other elements and a meaning that is only the reading", () => {
    expect(readingApart("la maison", "<b>café</b> the house")).toBeNull();
    expect(readingApart("先週", "<b>last</b> week")).toBeNull();
    expect(readingApart("先週", "<span>せんしゅう</span>")).toBeNull();
    expect(readingApart("你好", "<b>coffee</b> hello")).toBeNull();
  });

  it("gives imported rows their reading apart, from a Reading column or from the meaning", () => {
    const deck = {
      kind: "apkg" as const,
      headers: ["Question", "Answer"],
      rows: [{ line: 1, cells: ["先週", "<span>せんしゅう</span> la semaine dernière"] }],
      html: true,
    };
    expect(mapRows(deck, ["text", "meaning"], "").rows[0]).toMatchObject({
      text: "先週",
      reading: "せんしゅう",
      meaning: "la semaine dernière",
    });
    const core = { ...deck, rows: [{ line: 1, cells: ["先週", " せんしゅう ", "last week"] }] };
    expect(mapRows(core, ["text", "reading", "meaning"], "").rows[0]).toMatchObject({
      reading: "せんしゅう",
      meaning: "last week",
    });
    const long = { ...deck, rows: [{ line: 1, cells: ["先週", "せ".repeat(201), "x"] }] };
    expect(mapRows(long, ["text", "reading", "meaning"], "").problems).toEqual([{ line: 1, reason: "readingTooLong" }]);
  });
});
