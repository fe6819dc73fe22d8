/**
 * The reader's index of a learner's vocabulary (terms and known words) is built once per vocabulary version; marking
 * words known, one or a page at a time, and undoing it change the index kept in memory instead of building it again
 * (issue 54: a learner with 20,000 known words marks them page by page). Whatever the path, the index matches one
 * built afresh. On the embedded database, opened as the server opens it.
 */
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { findOrCreateUser } from "../../app/auth/users.server";
import type { Database } from "../../app/db/db.server";
import { openDatabase, type DatabaseHandle } from "../../app/db/open.server.ts";
import type { VocabularyIndex } from "../../app/reading/match";
import { markKnown, undoKnownBatch } from "../../app/reading/known-words.server";
import { ignoreWord, unignoreWord } from "../../app/reading/texts.server";
import { learnedNow, versionsOf, vocabularyIndex } from "../../app/reading/vocabulary-index.server";
import { PROJECT_ROOT } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

const dataDir = tempDir("known-words-index");
let handle: DatabaseHandle;
let db: Database;

beforeAll(async () => {
  handle = await openDatabase({ dataDir, migrationsFolder: `${PROJECT_ROOT}/drizzle`, worker: true });
  db = handle.db;
}, 60_000);
afterAll(async () => {
  await handle?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The index for the learner's vocabulary version now. */
const indexNow = async (owner: { userId: string; language: string }) =>
  vocabularyIndex(db, owner, (await versionsOf(db, owner.userId)).vocabulary);
/** The learned terms for the learner's data version now (what the reader's page and the text list need). */
const learnedAt = async (owner: { userId: string; language: string }) =>
  learnedNow(db, owner, (await versionsOf(db, owner.userId)).data);
/** What an index matches single words against: word → the stage it gives. */
const singles = (index: VocabularyIndex) =>
  new Map([...index.single].map(([word, entry]) => [word, entry.termId === null ? "ignored" : "term"]));

it("follows known words marked and unmarked without building the index again, as a fresh build would", async () => {
  const user = await findOrCreateUser(db, `index-${process.pid}@example.test`);
  const owner = { userId: user.id, language: "de" };
  await db.execute(
    sql`insert into terms (user_id, language, text, meaning, part_of_speech) values (${user.id}, 'de', 'Haus', 'house', 'noun')`,
  );
  await markKnown(db, owner, ["und", "der"], new Date("2026-01-01T00:00:00Z"));
  const index = await indexNow(owner);
  const learned = await learnedAt(owner);

  await ignoreWord(db, owner, "Garten");
  const batch = new Date("2026-02-01T00:00:00Z");
  expect(await markKnown(db, owner, ["Baum", "und", "Haus", "Weg"], batch)).toBe(3);
  await unignoreWord(db, owner, "der");
  expect(await indexNow(owner)).toBe(index);
  expect(singles(index)).toEqual(
    new Map([
      ["haus", "term"],
      ["und", "ignored"],
      ["garten", "ignored"],
      ["baum", "ignored"],
      ["weg", "ignored"],
    ]),
  );

  expect(await undoKnownBatch(db, owner, batch)).toBe(3);
  expect(await indexNow(owner)).toBe(index);
  expect(await learnedAt(owner)).toBe(learned);
  // The known word "haus" of the batch went; the term stays.
  expect(singles(index)).toEqual(
    new Map([
      ["haus", "term"],
      ["und", "ignored"],
      ["garten", "ignored"],
    ]),
  );

  // A write of another kind (a term) builds it again, with everything.
  await db.execute(
    sql`insert into terms (user_id, language, text, meaning, part_of_speech) values (${user.id}, 'de', 'Tür', 'door', 'noun')`,
  );
  const rebuilt = await indexNow(owner);
  expect(rebuilt).not.toBe(index);
  expect(await learnedAt(owner)).not.toBe(learned);
  expect(singles(rebuilt)).toEqual(new Map([...singles(index), ["tür", "term"]]));
});
