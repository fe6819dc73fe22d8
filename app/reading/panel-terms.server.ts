import type { Database } from "../db/db.server";
import type { ParsedTerm } from "../learning/term-form";
import { createTerm, deleteTerm, findTerm, isDuplicate, type Owner } from "../learning/terms.server";
import { isPartOfSpeech, type OptionalPartOfSpeech } from "../learning/vocabulary";
import { roomForTerms } from "../learning/limits.server";
import { ignoreWord, unignoreWord } from "./texts.server";

/**
 * The meaning and part of speech of a meaning's button in the word panel (`choice`: the part of speech or nothing, a
 * bar, the gloss; instant-meanings.tsx); null when none was pressed (the learner typed the meaning).
 */
export function readChoice(value: string): { meaning: string; partOfSpeech: OptionalPartOfSpeech | null } | null {
  const bar = value.indexOf("|");
  if (bar < 0) return null;
  const meaning = value
    .slice(bar + 1)
    .trim()
    .slice(0, 500);
  const partOfSpeech = value.slice(0, bar);
  if (!meaning) return null;
  return { meaning, partOfSpeech: isPartOfSpeech(partOfSpeech) ? partOfSpeech : null };
}

export type Added =
  | {
      ok: true;
      id: string;
      text: string;
      /** The word was known (ignored) before: its undo makes it known again. */ wasKnown: boolean;
    }
  | { ok: false; reason: "limit" | "duplicate" };

/**
 * Adds the open word as a term, with a pressed meaning (`choice`) over the typed one, and the sentence as its example.
 * Refused past the learner's term limit and when the learner has the term already.
 */
export async function addPanelTerm(
  db: Database,
  owner: Owner,
  input: { term: ParsedTerm; example: { sentence: string; translation: string } | null; choice: string },
): Promise<Added> {
  if (!(await roomForTerms(db, owner.userId))) return { ok: false, reason: "limit" };
  const picked = readChoice(input.choice);
  const term = picked
    ? { ...input.term, meaning: picked.meaning, partOfSpeech: picked.partOfSpeech ?? input.term.partOfSpeech }
    : input.term;
  try {
    const created = await createTerm(db, owner, term, input.example ?? undefined);
    // A known word the learner now wants to learn is a term only, counted once (ADR 105).
    const wasKnown = await unignoreWord(db, owner, created.text);
    return { ok: true, id: created.id, text: created.text, wasKnown };
  } catch (error) {
    if (!isDuplicate(error)) throw error;
    return { ok: false, reason: "duplicate" };
  }
}

/**
 * The undo of a term just added from the panel: the term goes (with its example), and a word that was known before
 * is known again. Null when the learner has no such term (already undone).
 */
export async function undoPanelTerm(
  db: Database,
  owner: Owner,
  termId: string,
  wasKnown: boolean,
): Promise<{ text: string } | null> {
  const term = await findTerm(db, owner.userId, termId);
  if (!term || !(await deleteTerm(db, owner.userId, term.id))) return null;
  if (wasKnown && term.language === owner.language) await ignoreWord(db, owner, term.text);
  return { text: term.text };
}
