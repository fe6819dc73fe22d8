import { describe, expect, it } from "vitest";
import { binaryKind, isZip } from "#app/transfer/anki-import.server.ts";

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === "string" ? [...Buffer.from(part, "latin1")] : part)));

describe("what an uploaded file looks like, by its first bytes", () => {
  it("names images, documents, archives, databases, media and programs", () => {
    const cases: [Uint8Array, string][] = [
      [bytes([0x89], "PNG\r\n\x1a\n"), "image"],
      [bytes([0xff, 0xd8, 0xff, 0xe0]), "image"],
      [bytes("GIF89a"), "image"],
      [bytes("RIFF", [1, 2, 3, 4], "WEBPVP8 "), "image"],
      [bytes("%PDF-1.7\n"), "pdf"],
      [bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), "spreadsheet"],
      [bytes([0x1f, 0x8b, 0x08]), "gzip"],
      [bytes("SQLite format 3\u0000"), "sqlite"],
      [bytes("ID3", [4, 0]), "audio"],
      [bytes([0, 0, 0, 0x20], "ftypisom"), "video"],
      [bytes([0x7f], "ELF"), "executable"],
      [bytes("PK", [3, 4, 20, 0]), "zip"],
      [bytes("abc", [0], "def"), "binary"],
    ];
    for (const [head, kind] of cases) expect(binaryKind(head), kind).toBe(kind);
  });

  it("lets text through: CSV, JSON, UTF-8 with a BOM, UTF-16 with its NULs", () => {
    expect(binaryKind(bytes("term,meaning\nHund,dog\n"))).toBeNull();
    expect(binaryKind(bytes('{"format":"polyglot-export"}'))).toBeNull();
    expect(binaryKind(new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from("Hund;dog")]))).toBeNull();
    expect(binaryKind(new Uint8Array([0xff, 0xfe, 0x48, 0, 0x75, 0]))).toBeNull();
  });

  it("recognises a zip by its local header or an empty archive's end record", () => {
    expect(isZip(bytes("PK", [3, 4]))).toBe(true);
    expect(isZip(bytes("PK", [5, 6]))).toBe(true);
    expect(isZip(bytes("PKZIP"))).toBe(false);
  });
});
