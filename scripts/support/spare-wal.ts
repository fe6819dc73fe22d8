/**
 * The write-ahead log a cleanly shut down database still needs is the segment holding its last checkpoint: PostgreSQL
 * keeps older segments and recycles them as future ones (16 MB each) until a later checkpoint. A template data
 * directory (scripts/data-template.ts) drops those spare segments, so the image does not carry them; a server started
 * on a copy creates new segments as it writes.
 */
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";

/** ControlFileData (PostgreSQL's include/catalog/pg_control.h): where `state` and the checkpoint are. */
const STATE_OFFSET = 16;
const CHECKPOINT_OFFSET = 32;
const REDO_OFFSET = 40;
const TIMELINE_OFFSET = 48;
const SHUT_DOWN = 1;
const SEGMENT_NAME = /^[0-9A-F]{24}$/;

/** The segment file name holding `lsn`, as PostgreSQL's `pg_walfile_name` gives it. */
export function walFileName(timeline: number, lsn: bigint, segmentSize: number): string {
  const segment = lsn / BigInt(segmentSize);
  const perId = 0x1_0000_0000n / BigInt(segmentSize);
  const hex = (value: bigint | number) => value.toString(16).toUpperCase().padStart(8, "0");
  return hex(timeline) + hex(segment / perId) + hex(segment % perId);
}

/**
 * Removes the write-ahead log segments of the cleanly shut down database in `pgdata` other than those from its last
 * checkpoint's redo point to the checkpoint itself. Returns the names removed; a database not shut down cleanly keeps
 * every segment.
 */
export function removeSpareWal(pgdata: string): string[] {
  const control = readFileSync(path.join(pgdata, "global", "pg_control"));
  if (control.readInt32LE(STATE_OFFSET) !== SHUT_DOWN) return [];
  const walDir = path.join(pgdata, "pg_wal");
  const segments = readdirSync(walDir).filter((name) => SEGMENT_NAME.test(name));
  if (segments.length < 2) return [];
  const segmentSize = statSync(path.join(walDir, segments[0]!)).size;
  const timeline = control.readUInt32LE(TIMELINE_OFFSET);
  const first = walFileName(timeline, control.readBigUInt64LE(REDO_OFFSET), segmentSize);
  const last = walFileName(timeline, control.readBigUInt64LE(CHECKPOINT_OFFSET), segmentSize);
  if (!segments.includes(first) || !segments.includes(last)) return [];
  const spare = segments.filter((name) => name < first || name > last);
  for (const name of spare) rmSync(path.join(walDir, name));
  return spare;
}
