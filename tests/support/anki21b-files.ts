import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createZstdCompress, zstdCompressSync } from "node:zlib";
import { legacyStub, zip } from "./anki-files";

/**
 * Anki packages in the newest layout (`collection.anki21b`), built here as Anki's exporter writes them
 * (rslib/src/import_export/package/colpkg/export.rs): a `meta` entry (protobuf `PackageMetadata`, version 3), the
 * collection zstd-compressed, the stub collection older versions read, the `media` list as zstd-compressed protobuf
 * `MediaEntries`, and each file zstd-compressed under its number. Protobuf written by hand, independently of the app.
 */

const varint = (value: number) => {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
};
/** A protobuf field: a number with a varint, or bytes (a string, a message). */
export const field = (number: number, value: number | Buffer | string) =>
  typeof value === "number"
    ? Buffer.concat([varint(number * 8), varint(value)])
    : Buffer.concat([varint(number * 8 + 2), varint(Buffer.byteLength(value)), Buffer.from(value)]);

export type MediaFile = {
  name: string;
  data: Buffer;
  /** The archive entry holding it when not its position (a list converted from an older package). */
  legacyZip?: number;
  /** The size the list gives, when not the data's. */
  size?: number;
  /** The file's bytes in the archive, when not the data compressed. */
  stored?: Buffer;
  /** More fields of the entry (ones a reader must skip). */
  extra?: Buffer;
};

/** A `MediaEntries` message for these files. */
export const mediaEntries = (files: MediaFile[]) =>
  Buffer.concat(
    files.map((file) => {
      const entry = Buffer.concat([
        field(1, file.name),
        field(2, file.size ?? file.data.length),
        field(3, createHash("sha1").update(file.data).digest()),
        file.extra ?? Buffer.alloc(0),
        file.legacyZip === undefined ? Buffer.alloc(0) : field(255, file.legacyZip),
      ]);
      return field(1, entry);
    }),
  );

/** A `collection.anki21b` package of `collection` (an SQLite file's bytes) and these media files. */
export function anki21bPackage(
  collection: Buffer,
  files: MediaFile[],
  options: { storedCollection?: Buffer; storedList?: Buffer } = {},
): Buffer {
  return zip([
    ["meta", field(1, 3)],
    ["collection.anki21b", options.storedCollection ?? zstdCompressSync(collection)],
    ["collection.anki2", legacyStub()],
    ...files.map((file, i): [string, Buffer] => [
      String(file.legacyZip ?? i),
      file.stored ?? zstdCompressSync(file.data),
    ]),
    ["media", options.storedList ?? zstdCompressSync(mediaEntries(files))],
  ]);
}

/**
 * One zstd frame of `parts` compressed as a stream (its size unknown to the frame's header, as a streaming writer's
 * is): `params` sets the compressor's (its window, say).
 */
export async function zstdFrame(parts: Iterable<Buffer>, params: Record<number, number> = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(Readable.from(parts), createZstdCompress({ params }), async (out: AsyncIterable<Buffer>) => {
    for await (const chunk of out) chunks.push(chunk);
  });
  return Buffer.concat(chunks);
}

/** A zstd frame that unpacks to `before` and `mib` MiB of zeros, from a few KB: a zstd bomb. */
export const zstdZeros = (mib: number, before: Buffer = Buffer.alloc(0)) =>
  zstdFrame(
    (function* () {
      if (before.length > 0) yield before;
      for (let i = 0; i < mib; i++) yield Buffer.alloc(1024 * 1024);
    })(),
  );
