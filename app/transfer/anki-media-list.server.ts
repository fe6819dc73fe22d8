/**
 * The `media` list of a `collection.anki21b` package (ADR 138), once unpacked from zstd: the protobuf message Anki
 * writes (`proto/anki/import_export.proto`),
 *
 *     message MediaEntries { repeated MediaEntry entries = 1; }
 *     message MediaEntry { string name = 1; uint32 size = 2; bytes sha1 = 3; optional uint32 legacy_zip_filename = 255; }
 *
 * read here by a reader of that one message: the n-th entry's file is the archive's entry named n (or its
 * `legacy_zip_filename`, when a list converted from an older package has gaps). Fields it does not know are skipped, as
 * protobuf readers do.
 */

import { isUtf8 } from "node:buffer";
import { setImmediate as nextTurn } from "node:timers/promises";

/** One file of the list: the archive entry that holds it, the name notes use, its size and SHA-1 once unpacked. */
export type ListedMedia = { entry: string; name: string; size: number; sha1: string | null };

const VARINT = 0;
const FIXED64 = 1;
const BYTES = 2;
const FIXED32 = 5;

class Damaged extends Error {}

/** A cursor over protobuf fields: each `next()` is a field number with its wire type and value. */
class Fields {
  private at = 0;
  private readonly bytes: Uint8Array;
  private readonly end: number;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.end = bytes.length;
  }

  get done() {
    return this.at >= this.end;
  }

  /** A varint of up to 64 bits, exact up to 2^53 (sizes and lengths beyond that are refused by their readers). */
  varint(): number {
    let value = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (this.at >= this.end) throw new Damaged();
      const byte = this.bytes[this.at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    throw new Damaged();
  }

  next(): { field: number; wire: number; value: number | Uint8Array } {
    const key = this.varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (field === 0) throw new Damaged();
    if (wire === VARINT) return { field, wire, value: this.varint() };
    const skip = wire === FIXED64 ? 8 : wire === FIXED32 ? 4 : wire === BYTES ? this.varint() : -1;
    // Groups (wire types 3 and 4) are deprecated and never in this message.
    if (skip < 0 || skip > this.end - this.at) throw new Damaged();
    const start = this.at;
    this.at += skip;
    return { field, wire, value: wire === BYTES ? this.bytes.subarray(start, this.at) : 0 };
  }
}

const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function entryOf(bytes: Uint8Array, index: number): ListedMedia {
  const fields = new Fields(bytes);
  const entry: ListedMedia = { entry: String(index), name: "", size: 0, sha1: null };
  while (!fields.done) {
    const { field, wire, value } = fields.next();
    const known = field === 1 || field === 2 || field === 3 || field === 255;
    if (known && wire !== (field === 1 || field === 3 ? BYTES : VARINT)) throw new Damaged();
    // A uint32 keeps the low 32 bits of its varint.
    if (field === 1) {
      if (!isUtf8(value as Uint8Array)) throw new Damaged();
      entry.name = buffer(value as Uint8Array).toString("utf8");
    }
    if (field === 2) entry.size = (value as number) % 2 ** 32;
    if (field === 3) entry.sha1 = buffer(value as Uint8Array).toString("hex") || null;
    if (field === 255) entry.entry = String((value as number) % 2 ** 32);
  }
  return entry;
}

/** Entries read per turn of the event loop: a list of 50,000 is never read in one piece. */
const ENTRIES_PER_TURN = 2000;

/**
 * The files of an unpacked `media` list, in order; "tooMany" past `maxEntries` (no archive holds more files), null when
 * the bytes are not that message.
 */
export async function readMediaEntries(
  bytes: Uint8Array,
  maxEntries: number,
): Promise<ListedMedia[] | "tooMany" | null> {
  const list: ListedMedia[] = [];
  try {
    const fields = new Fields(bytes);
    while (!fields.done) {
      const { field, wire, value } = fields.next();
      if (field !== 1) continue;
      if (wire !== BYTES) return null;
      if (list.length >= maxEntries) return "tooMany";
      if (list.length > 0 && list.length % ENTRIES_PER_TURN === 0) await nextTurn();
      list.push(entryOf(value as Uint8Array, list.length));
    }
    return list;
  } catch (error) {
    if (error instanceof Damaged) return null;
    throw error;
  }
}
