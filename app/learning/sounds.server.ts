import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { importDraftSounds } from "../transfer/transfer.schema";
import { terms } from "./learning.schema";
import { termSounds } from "./sounds.schema";
import { SOUNDS_PER_LEARNER_BYTES, type SoundKind } from "./sounds";

/** The bytes of a learner's sounds, in all languages. */
export async function soundBytesOf(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${termSounds.size}), 0)` })
    .from(termSounds)
    .where(eq(termSounds.userId, userId));
  return Number(row?.total ?? 0);
}

/** What is left of the learner's limit for sounds. */
export const soundRoomOf = async (db: Database, userId: string) =>
  Math.max(0, SOUNDS_PER_LEARNER_BYTES - (await soundBytesOf(db, userId)));

/** A learner's sound by its hash (any of their terms that has it), for serving. */
export async function findSound(db: Database, userId: string, hash: string) {
  const [row] = await db
    .select({ kind: termSounds.kind, data: termSounds.data })
    .from(termSounds)
    .where(and(eq(termSounds.userId, userId), eq(termSounds.hash, hash)))
    .limit(1);
  return row ? { kind: row.kind as SoundKind, data: row.data } : null;
}

/** The hashes of these terms' sounds (terms without one are absent). */
export async function soundHashesOf(db: Database, termIds: string[]): Promise<Map<string, string>> {
  if (termIds.length === 0) return new Map();
  const rows = await db
    .select({ termId: termSounds.termId, hash: termSounds.hash })
    .from(termSounds)
    .where(inArray(termSounds.termId, termIds));
  return new Map(rows.map((row) => [row.termId, row.hash]));
}

/** Keeps a checked sound of an uploaded package with its draft. */
export async function keepDraftSound(
  db: Database,
  draftId: string,
  sound: { name: string; kind: SoundKind; hash: string; size: number; data: Buffer },
) {
  await db
    .insert(importDraftSounds)
    .values({ draftId, ...sound })
    .onConflictDoNothing();
}

/** The names of the sounds kept with a draft. */
export async function draftSoundNames(db: Database, draftId: string): Promise<Set<string>> {
  const rows = await db
    .select({ name: importDraftSounds.name })
    .from(importDraftSounds)
    .where(eq(importDraftSounds.draftId, draftId));
  return new Set(rows.map((row) => row.name));
}

/** Gives new terms the draft's sounds they name ([term id, sound name]), in the import's transaction. */
export async function attachDraftSounds(tx: Database, userId: string, draftId: string, rows: [string, string][]) {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows.map(([term_id, name]) => ({ term_id, name })));
  await tx.execute(sql`insert into term_sounds (term_id, user_id, kind, hash, size, name, data)
    select x.term_id, ${userId}, s.kind, s.hash, s.size, left(s.name, 200), s.data
    from jsonb_to_recordset(${json}::jsonb) as x(term_id uuid, name text)
    join import_draft_sounds s on s.draft_id = ${draftId} and s.name = x.name`);
}

/** How many terms of the learner have a sound. */
export async function soundCountOf(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<string>`count(*)` })
    .from(termSounds)
    .where(eq(termSounds.userId, userId));
  return Number(row?.count ?? 0);
}

/** The learner's sounds without their bytes, by the language and lower-cased text of their terms (an export's key). */
export async function soundsByTerm(db: Database, userId: string) {
  const rows = await db
    .select({ language: terms.language, text: terms.text, name: termSounds.name, hash: termSounds.hash })
    .from(termSounds)
    .innerJoin(terms, eq(terms.id, termSounds.termId))
    .where(eq(termSounds.userId, userId));
  return new Map(rows.map((row) => [`${row.language}\u0000${row.text}`, { name: row.name, hash: row.hash }]));
}
