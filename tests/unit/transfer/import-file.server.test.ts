import { describe, expect, it } from "vitest";
import { addDays, dayFormatter, daysUntil, safeTimeZone, weekOf } from "#app/progress/days.ts";
import { parseRange } from "#app/progress/range.ts";
import { htmlToText, readTable } from "#app/transfer/import-file.server.ts";
import { guessMapping, mapRows } from "#app/transfer/import-rows.server.ts";

describe("reading an import file", () => {
  it("reads Anki's header lines, its separator and HTML fields", async () => {
    const table = await readTable(
      '#separator:semicolon\n#html:true\n#columns:Front;Back\ncasa;<b>house</b><br>home\n"a;b";"x &amp; y"\n',
    );
    expect(table.kind).toBe("anki");
    expect(table.headers).toEqual(["Front", "Back"]);
    expect(table.rows).toEqual([
      { line: 4, cells: ["casa", "<b>house</b><br>home"] },
      { line: 5, cells: ["a;b", "x &amp; y"] },
    ]);
    expect(guessMapping(table)).toEqual(["text", "meaning"]);
    expect(mapRows(table, ["text", "meaning"], "noun").rows.map((r) => r.meaning)).toEqual(["house\nhome", "x & y"]);
  });

  it("guesses tab, semicolon or comma from the first line and takes a header only when it names columns", async () => {
    expect((await readTable("a\tb, c\n")).kind).toBe("tsv");
    expect((await readTable("a;b;c\n")).rows[0]!.cells).toEqual(["a", "b", "c"]);
    const plain = await readTable("Haus,house\nBaum,tree\n");
    expect(plain.headers).toEqual([]);
    expect(plain.rows).toHaveLength(2);
    const named = await readTable("\uFEFFterm,hint,fragment,status\nHaus,house,Das Haus.,1\n");
    expect(guessMapping(named)).toEqual(["text", "meaning", "example", "ignore"]);
  });

  it("names every bad row by the line it starts on, also after a quoted field that spans lines", async () => {
    const table = await readTable(
      'text,meaning,pos\n"two\nlines",x,noun\n,empty,noun\nok,fine,verbb\nfast,quick,adj\n',
    );
    const { rows, problems } = mapRows(table, ["text", "meaning", "partOfSpeech"], "noun");
    expect(rows.map((r) => [r.line, r.text, r.partOfSpeech])).toEqual([
      [2, "two lines", "noun"],
      [6, "fast", "adjective"],
    ]);
    expect(problems).toEqual([
      { line: 4, reason: "textRequired" },
      { line: 5, reason: "partOfSpeech", value: "verbb" },
    ]);
  });

  it("leaves the part of speech empty when the file has none and the learner chose none", async () => {
    const bare = await readTable("text,meaning\nHaus,house\n");
    expect(mapRows(bare, ["text", "meaning"], "").rows[0]!.partOfSpeech).toBe("");
    const blank = await readTable("text,pos\nlaufen,\ngehen,verb\n");
    expect(mapRows(blank, ["text", "partOfSpeech"], "").rows.map((r) => r.partOfSpeech)).toEqual(["", "verb"]);
  });

  it("splits an examples cell into examples with translations", async () => {
    const table = await readTable('text,examples\nrun,"I run. | Corro.\nRun!"\n');
    expect(mapRows(table, ["text", "example"], "verb").rows[0]!.examples).toEqual([
      { sentence: "I run.", translation: "Corro." },
      { sentence: "Run!", translation: "" },
    ]);
  });

  it("turns HTML into text without leaving entities, sounds or empty lines", async () => {
    expect(htmlToText("<div>a&nbsp;b</div><div></div>[sound:x.mp3]&#x1F600;&#0;")).toBe("a b\n😀");
  });
});

describe("days of the statistics", () => {
  it("counts calendar days in the learner's zone, across a daylight-saving change", async () => {
    const berlin = dayFormatter("Europe/Berlin");
    expect(berlin(new Date("2026-03-28T23:30:00Z"))).toBe("2026-03-29");
    expect(berlin(new Date("2026-03-29T21:59:00Z"))).toBe("2026-03-29");
    expect(berlin(new Date("2026-03-29T22:00:00Z"))).toBe("2026-03-30");
    expect(dayFormatter("Asia/Kolkata")(new Date("2026-11-22T18:30:00Z"))).toBe("2026-11-23");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(daysUntil("2026-01-02", 3)).toEqual(["2025-12-31", "2026-01-01", "2026-01-02"]);
    expect(weekOf("2026-11-29")).toBe("2026-11-23");
    expect(weekOf("2026-11-23")).toBe("2026-11-23");
    expect(safeTimeZone("Not/AZone")).toBe("UTC");
  });

  it("takes 30 or 90 days and refuses anything else", async () => {
    expect([null, "30", "90", "7", "30.0", "-30", "abc"].map(parseRange)).toEqual([30, 30, 90, null, null, null, null]);
  });
});
