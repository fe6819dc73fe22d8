import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import type { Segmented } from "../reading/segment";
import { lowerFor } from "../reading/segment";
import { addToIndex, emptyIndex, type VocabularyIndex } from "../reading/match";
import { pauser, type StageChange } from "../reading/vocabulary-index.server";
import {
  familyStage,
  linkRefusal,
  proposeParents,
  stemKey,
  type LinkRefusal,
  type ParentProposal,
  type WordFamily,
} from "./families";
import { termExamples, terms } from "./learning.schema";
import { lemmaCandidates } from "./lemmas.server";
import { roomForTerms } from "./limits.server";
import { newCard, stageOf } from "./stage";
import { stemmerFor } from "./stemmers.server";
import type { Owner } from "./terms.server";
import type { Stage } from "./vocabulary";

/** Word families (ADR 061): proposals for a word's parent, linking and unlinking, the stages a family shows. */

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Entry = { key: string; text: string; termId: string };

const owned = (owner: Owner) => and(eq(terms.userId, owner.userId), eq(terms.language, owner.language));
const sameText = (text: string) => sql`lower(${terms.text}) = lower(${text})`;

/**
 * Stems of words seen before, by language: a stem depends on the word alone, so it outlives the vocabulary version that
 * asked for it, and regrouping after a term is added stems only that term (a Snowball stem costs ~20 µs; 50,000 of
 * them, a second). Emptied when full.
 */
const STEMS_KEPT = 200_000;
const stems = new Map<string, Map<string, string | null>>();
let stemsKept = 0;

function cachedStemKey(language: string, word: string, stem: NonNullable<ReturnType<typeof stemmerFor>>) {
  let byWord = stems.get(language);
  if (!byWord) stems.set(language, (byWord = new Map()));
  let found = byWord.get(word);
  if (found === undefined) {
    if (stemsKept >= STEMS_KEPT) {
      stems.clear();
      stemsKept = 0;
      stems.set(language, (byWord = new Map()));
    }
    byWord.set(word, (found = stemKey(language, word, stem)));
    stemsKept++;
  }
  return found;
}

/** The index's terms grouped by stem, worked out once per index (so once per vocabulary version), with pauses. */
const stemGroups = new WeakMap<VocabularyIndex, Promise<Map<string, Entry[]>>>();

function groupsOf(index: VocabularyIndex): Promise<Map<string, Entry[]>> {
  let found = stemGroups.get(index);
  if (found) return found;
  found = (async () => {
    const groups = new Map<string, Entry[]>();
    const stem = stemmerFor(index.language);
    if (!stem) return groups;
    const pause = pauser();
    let seen = 0;
    for (const map of [index.single, index.byArticle])
      for (const [key, entry] of map) {
        if (entry.termId === null) continue;
        const family = cachedStemKey(index.language, key, stem);
        if (family !== null) {
          const group = groups.get(family) ?? [];
          group.push({ key, text: entry.text, termId: entry.termId });
          groups.set(family, group);
        }
        if ((++seen & 255) === 0) await pause();
      }
    return groups;
  })();
  stemGroups.set(index, found);
  return found;
}

/** The words of a text as written, once each by their lower case. */
export function textWordsOf(language: string, text: Segmented): string[] {
  const words = new Map<string, string>();
  for (const paragraph of text.paragraphs)
    for (const sentence of paragraph)
      for (const piece of sentence.pieces)
        if (typeof piece !== "string") {
          const key = lowerFor(language, piece.text);
          if (!words.has(key)) words.set(key, piece.text);
        }
  return [...words.values()];
}

/**
 * The parents proposed for a word the learner opened: the dictionary's lemmas (given when the panel's look-up found
 * them already, else `lemmaCandidates`), then the learner's
 * terms and the text's words that share its stem. A proposed term that is a form itself is replaced by its parent.
 */
export async function parentProposals(
  db: Database,
  owner: Owner,
  index: VocabularyIndex,
  word: string,
  textWords: string[] = [],
  dictionaryLemmas?: string[],
): Promise<(ParentProposal & { meaning: string })[]> {
  const { language } = owner;
  const stem = stemmerFor(language);
  const termOf = (text: string) => index.single.get(lowerFor(language, text))?.termId ?? null;
  const lemmas = (dictionaryLemmas ?? (await lemmaCandidates(language, word))).map((text) => ({
    text,
    termId: termOf(text),
  }));
  const family = stem ? stemKey(language, word, stem) : null;
  const related = family === null ? [] : ((await groupsOf(index)).get(family) ?? []);
  const proposals = proposeParents({ language, word, stem, lemmas, terms: related, textWords });
  const ids = proposals.flatMap((p) => (p.termId ? [p.termId] : []));
  if (ids.length === 0) return proposals.map((p) => ({ ...p, meaning: "" }));
  // The proposed terms, or their parents when they are forms: one query for both.
  const rows = await db
    .select({
      id: sql<string>`${terms.id}::text`,
      text: terms.text,
      meaning: terms.meaning,
      rootId: sql<string | null>`p.id::text`,
      rootText: sql<string | null>`p.text`,
      rootMeaning: sql<string | null>`p.meaning`,
    })
    .from(terms)
    .leftJoin(sql`"terms" as p`, sql`p.id = ${terms.parentId}`)
    .where(and(owned(owner), sql`${terms.id} = any(${sql.param(ids)}::uuid[])`));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const self = lowerFor(language, word.trim());
  const seen = new Set<string>([self]);
  const out: (ParentProposal & { meaning: string })[] = [];
  for (const proposal of proposals) {
    const row = proposal.termId ? byId.get(proposal.termId) : undefined;
    const resolved =
      row && row.rootId
        ? { ...proposal, text: row.rootText!, termId: row.rootId, meaning: row.rootMeaning ?? "" }
        : { ...proposal, meaning: row?.meaning ?? "" };
    const key = lowerFor(language, resolved.text);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(resolved);
  }
  return out;
}

/** Terms a term page reads at most to propose a parent (those of the same first letters of the stem). */
const TERM_PAGE_CANDIDATES = 200;

/**
 * The parents proposed on a term's own page, without the reader's index (which a term page should not build): the
 * dictionary's lemmas, then the learner's terms that share the term's stem, read along the index of the terms' texts
 * from the stem's first two letters. A lemma spelled otherwise at its start ("Käse" for "Kasen") is not found this way;
 * the page's field takes any basic form.
 */
export async function termPageProposals(db: Database, owner: Owner, word: string) {
  const { language } = owner;
  const stem = stemmerFor(language);
  const family = stem ? stemKey(language, word, stem) : null;
  const rows =
    family === null
      ? []
      : await db
          .select({ id: sql<string>`${terms.id}::text`, text: terms.text })
          .from(terms)
          .where(
            and(
              owned(owner),
              sql`lower(${terms.text}) >= ${family.slice(0, 2)}`,
              sql`lower(${terms.text}) < ${`${family.slice(0, 2)}\uffff`}`,
            ),
          )
          .orderBy(sql`lower(${terms.text})`)
          .limit(TERM_PAGE_CANDIDATES);
  const index = emptyIndex(language);
  for (const row of rows) addToIndex(index, { text: row.text, stage: "tolearn", termId: row.id });
  return parentProposals(db, owner, index, word);
}

export type LinkResult =
  | { ok: true; form: { id: string; text: string }; parent: { id: string; text: string } }
  | { ok: false; reason: LinkRefusal | "limit" | "missing" };

const termColumns = {
  id: terms.id,
  text: terms.text,
  meaning: terms.meaning,
  parentId: terms.parentId,
};

type TermRow = { id: string; text: string; meaning: string; parentId: string | null };

async function findOrCreate(tx: Tx, owner: Owner, text: string, meaning: string, now: Date) {
  const [found] = await tx
    .select(termColumns)
    .from(terms)
    .where(and(owned(owner), sameText(text)))
    .for("update");
  if (found) return { term: found, created: false };
  const [created] = await tx
    .insert(terms)
    .values({ ...owner, text, meaning, partOfSpeech: "", notes: "", ...newCard(now), createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning(termColumns);
  if (created) return { term: created, created: true };
  // Written at the same moment by another request: that one's term.
  const [again] = await tx
    .select(termColumns)
    .from(terms)
    .where(and(owned(owner), sameText(text)))
    .for("update");
  return { term: again!, created: false };
}

/**
 * Makes a term a form of a parent ("Hunde" of "Hund"). The form is a term of the learner (`id`) or a word (`text`)
 * that becomes one when it is not, with the sentence it was read in as its example; the parent is named by its text and
 * becomes a term when it is not one. A parent that is a form itself stands for its own parent (families are one level
 * deep). The form takes the parent's meaning when it has none. Refused: a term as its own form, a term that has forms
 * of its own (so no chain, no cycle), more terms than a learner may have, a form id that is not the learner's.
 */
export async function linkToParent(
  db: Database,
  owner: Owner,
  form: { id: string } | { text: string; sentence?: string },
  parentText: string,
  now = new Date(),
): Promise<LinkResult> {
  const wanted = ("text" in form ? 1 : 0) + 1;
  // Terms this link may add (the parent, the form): counted before, so the limit holds as everywhere else.
  const existing = await db
    .select({ id: terms.id })
    .from(terms)
    .where(
      and(
        owned(owner),
        sql`lower(${terms.text}) = any(${sql.param(["text" in form ? form.text : "", parentText].map((t) => t.toLowerCase()))}::text[])`,
      ),
    );
  if (existing.length < wanted && !(await roomForTerms(db, owner.userId, wanted - existing.length)))
    return { ok: false, reason: "limit" };
  return linkInTransaction(db, owner, form, parentText, now).catch((error: unknown) => {
    // Another request made the form a parent (or the parent a form) meanwhile: the trigger refused (drizzle/0017).
    if (databaseCode(error) === "23514") return { ok: false, reason: "hasForms" } as const;
    throw error;
  });
}

const databaseCode = (error: unknown) =>
  (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;

function linkInTransaction(
  db: Database,
  owner: Owner,
  form: { id: string } | { text: string; sentence?: string },
  parentText: string,
  now: Date,
): Promise<LinkResult> {
  return db.transaction(async (tx): Promise<LinkResult> => {
    let formRow: TermRow;
    let parent = (await findOrCreate(tx, owner, parentText, "", now)).term;
    if (parent.parentId) {
      const [root] = await tx.select(termColumns).from(terms).where(eq(terms.id, parent.parentId)).for("update");
      if (root) parent = root;
    }
    const parentMeaning = parent.meaning;
    if ("id" in form) {
      const [found] = await tx
        .select(termColumns)
        .from(terms)
        .where(and(owned(owner), eq(terms.id, form.id)))
        .for("update");
      if (!found) return { ok: false, reason: "missing" };
      formRow = found;
    } else {
      const made = await findOrCreate(tx, owner, form.text, parentMeaning, now);
      formRow = made.term;
      if (made.created && form.sentence)
        await tx.insert(termExamples).values({ termId: formRow.id, sentence: form.sentence, translation: "" });
    }
    const [forms] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(terms)
      .where(eq(terms.parentId, formRow.id));
    const refusal = linkRefusal({ id: formRow.id, forms: Number(forms?.n ?? 0) }, parent);
    if (refusal) return { ok: false, reason: refusal };
    await tx
      .update(terms)
      .set({ parentId: parent.id, meaning: formRow.meaning.trim() ? formRow.meaning : parentMeaning, updatedAt: now })
      .where(eq(terms.id, formRow.id));
    return { ok: true, form: { id: formRow.id, text: formRow.text }, parent: { id: parent.id, text: parent.text } };
  });
}

/** Makes a form a term of its own again; false when it is not the learner's. Its meaning stays. */
export async function unlinkParent(db: Database, userId: string, id: string, now = new Date()): Promise<boolean> {
  const rows = await db
    .update(terms)
    .set({ parentId: null, updatedAt: now })
    .where(and(eq(terms.id, id), eq(terms.userId, userId)))
    .returning({ id: terms.id });
  return rows.length === 1;
}

/** Forms a term page lists at most. */
export const LISTED_FORMS = 100;

/** A term's family: its parent (when it is a form) and its forms (when it is a parent). */
export async function familyOf(db: Database, userId: string, term: { id: string; parentId: string | null }) {
  const [parent] = term.parentId
    ? await db
        .select({ id: terms.id, text: terms.text, meaning: terms.meaning })
        .from(terms)
        .where(and(eq(terms.id, term.parentId), eq(terms.userId, userId)))
    : [];
  const forms = await db
    .select({ id: terms.id, text: terms.text })
    .from(terms)
    // By the parent alone (its partial index): a form is always its parent's learner's (drizzle/0017's trigger).
    .where(eq(terms.parentId, term.id))
    .orderBy(asc(sql`lower(${terms.text})`))
    .limit(LISTED_FORMS);
  return { parent: parent ?? null, forms };
}

/**
 * The stages words show for these terms: a term's own, or its parent's when it has none of its own yet (familyStage).
 * One query, for the terms still "to learn" only.
 */
export async function familyStages(
  db: Database,
  owner: Owner,
  stages: Map<string, Stage>,
  now = new Date(),
  /** Learns the soonest moment a parent's stage shown changes by itself. */
  change?: StageChange,
): Promise<Map<string, Stage>> {
  const waiting = [...stages].flatMap(([id, stage]) => (stage === "tolearn" ? [id] : []));
  if (waiting.length === 0) return stages;
  const rows = await db
    .select({
      id: sql<string>`${terms.id}::text`,
      state: sql<number>`p.state`,
      due: sql<Date | string>`p.due`,
      scheduledDays: sql<number>`p.scheduled_days`,
    })
    .from(terms)
    .innerJoin(sql`"terms" as p`, sql`p.id = ${terms.parentId}`)
    .where(and(eq(terms.userId, owner.userId), sql`${terms.id} = any(${sql.param(waiting)}::uuid[])`));
  for (const row of rows) {
    const parent = stageOf(
      { state: Number(row.state), due: new Date(row.due), scheduledDays: Number(row.scheduledDays) },
      now,
    );
    stages.set(row.id, familyStage(stages.get(row.id)!, parent));
    const due = new Date(row.due).getTime();
    if (change && Number(row.state) === 2 && due > now.getTime()) change.at = Math.min(change.at, due);
  }
  return stages;
}

/**
 * The family of the word open in the reader's panel: the parent of its term, or how many forms its term has, or the
 * parents to propose (none for an ignored word or one of several words). `lemmas`: the word's dictionary lemmas when
 * the panel's look-up (`panelLookUp`) already gave them.
 */
export async function wordFamily(
  db: Database,
  owner: Owner,
  index: VocabularyIndex,
  selected: { text: string; stage: string; term: { id: string; parentId: string | null } | null },
  text: Segmented,
  lemmas?: string[],
): Promise<WordFamily | null> {
  if (selected.stage === "ignored" || /\s/u.test(selected.text.trim())) return null;
  const family = selected.term ? await familyOf(db, owner.userId, selected.term) : { parent: null, forms: [] };
  if (family.parent || family.forms.length > 0)
    return { parent: family.parent, forms: family.forms.length, proposals: [] };
  const proposals = await parentProposals(db, owner, index, selected.text, textWordsOf(owner.language, text), lemmas);
  return {
    parent: null,
    forms: 0,
    proposals: proposals.map((p) => ({ text: p.text, termId: p.termId, meaning: p.meaning })),
  };
}

/** The message for a refused link, in the request's language. */
export function familyRefusal(
  t: (key: string, values?: Record<string, unknown>) => string,
  reason: LinkRefusal | "limit" | "missing",
  text: string,
): string {
  if (reason === "limit") return t("learning:errors.termLimit");
  if (reason === "hasForms") return t("learning:errors.familyHasForms", { text });
  if (reason === "self") return t("learning:errors.familySelf", { text });
  return t("learning:errors.invalidAction");
}
