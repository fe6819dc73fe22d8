import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readMediaEntries } from "#app/transfer/anki-media-list.server.ts";
import { field, mediaEntries } from "#tests/support/anki21b-files.ts";

/** The protobuf media list of `collection.anki21b` packages (ADR 138), written here by hand. */
describe("readMediaEntries", () => {
  const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

  it("reads each entry's name, size and SHA-1, its archive entry by position or legacy number", async () => {
    const bytes = mediaEntries([
      { name: "a.mp3", data: Buffer.from("aaa") },
      { name: "猫.ogg", data: Buffer.from("bb"), legacyZip: 300 },
      { name: "c.wav", data: Buffer.from(""), extra: Buffer.concat([field(9, "skip"), field(12, 70_000)]) },
    ]);
    expect(await readMediaEntries(bytes, 10)).toEqual([
      { entry: "0", name: "a.mp3", size: 3, sha1: sha1("aaa") },
      { entry: "300", name: "猫.ogg", size: 2, sha1: sha1("bb") },
      { entry: "2", name: "c.wav", size: 0, sha1: sha1("") },
    ]);
    // Fixed-width fields and fields around the entries are skipped as well.
    const fixed = Buffer.from([0x11, 1, 2, 3, 4, 5, 6, 7, 8, 0x15, 1, 2, 3, 4]);
    expect(await readMediaEntries(Buffer.concat([fixed, field(2, 5), bytes]), 10)).toHaveLength(3);
    expect(await readMediaEntries(Buffer.alloc(0), 10)).toEqual([]);
  });

  it("reads a list of 50,000 files a slice per turn of the event loop", async () => {
    const bytes = mediaEntries(
      Array.from({ length: 50_000 }, (_, i) => ({ name: `core-${i}.mp3`, data: Buffer.from(String(i)) })),
    );
    let turns = 0;
    let reading = true;
    const count = () => {
      turns++;
      if (reading) setImmediate(count);
    };
    setImmediate(count);
    const list = await readMediaEntries(bytes, 50_000);
    reading = false;
    expect(list).toHaveLength(50_000);
    expect(turns).toBeGreaterThanOrEqual(24);
  });

  it("refuses damaged bytes and more entries than a package may hold", async () => {
    const entry = field(1, field(1, "a.mp3"));
    expect(await readMediaEntries(Buffer.concat([entry, entry, entry]), 2)).toBe("tooMany");
    // A length past the end, a varint that never ends, a name sent as a number, a name not in UTF-8, a group.
    expect(await readMediaEntries(Buffer.from([0x0a, 0x7f, 0x0a]), 10)).toBeNull();
    expect(await readMediaEntries(Buffer.from([0x10, ...Array(11).fill(0xff)]), 10)).toBeNull();
    expect(await readMediaEntries(field(1, field(1, 5)), 10)).toBeNull();
    expect(await readMediaEntries(field(1, field(1, Buffer.from([0xc3, 0x28]))), 10)).toBeNull();
    expect(await readMediaEntries(Buffer.from([0x0b, 0x0c]), 10)).toBeNull();
    // Field number 0 does not exist.
    expect(await readMediaEntries(Buffer.from([0x00, 0x01]), 10)).toBeNull();
  });
});
