import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "../db/db.server";
import type { Owner } from "../learning/terms.server";
import { log } from "../server/log.server";
import { matchIndexed, type TextStats } from "./match";
import { texts } from "./reading.schema";
import { analyserReady } from "./analysers.server";
import {
  parseSegmentation,
  segmentationOf,
  segmentedFrom,
  segmenterOf,
  storedSegmentation,
  wordsFrom,
  type Segmentation,
  type Segmented,
} from "./segment";
import { keep, pauser, vocabularyIndex } from "./vocabulary-index.server";

/**
 * A text's words are segmented once, when it is written (or, for a text written before that was stored, when it is
 * first needed) and kept in `texts.segments`; what the learner knows of each text is counted once per vocabulary
 * version and kept here, per text, as counts per term: the list applies the stages of the moment to them (ADR 032).
 */

type TextRow = { id: string; language: string; body: string; updatedAt: Date; segments: string | null };

/** The stored form of a text's segmentation and its number of words. */
export async function segmentsOf(language: string, body: string): Promise<{ segments: string; wordCount: number }> {
  await analyserReady(language);
  const found = await segmentationOf(language, body);
  let wordCount = 0;
  for (const paragraph of found.offsets) for (const sentence of paragraph) wordCount += (sentence.length - 2) / 2;
  return { segments: storedSegmentation(found), wordCount };
}

const SEGMENTED_KEPT = 16;
const segmentedTexts = new Map<string, Segmented>();

/**
 * A text's stored segmentation; segmented and stored now when it has none yet, or when another segmenter made it than
 * the one its language has now (a Japanese text cut by Intl.Segmenter before the analyser was installed).
 */
async function offsetsOf(db: Database, text: TextRow): Promise<Segmentation> {
  await analyserReady(text.language);
  const stored = text.segments === null ? null : parseSegmentation(text.segments);
  if (stored && stored.by === segmenterOf(text.language)) return stored;
  const { segments, wordCount } = await segmentsOf(text.language, text.body);
  await db
    .update(texts)
    .set({ segments, wordCount })
    .where(
      and(
        eq(texts.id, text.id),
        eq(texts.updatedAt, text.updatedAt),
        text.segments === null ? isNull(texts.segments) : eq(texts.segments, text.segments),
      ),
    );
  return parseSegmentation(segments);
}

/** A text's words and sentences from its stored offsets; segmented and stored now when it has none yet. */
export async function segmentedOf(db: Database, text: TextRow): Promise<Segmented> {
  await analyserReady(text.language);
  const key = `${text.id}:${text.updatedAt.getTime()}:${segmenterOf(text.language)}`;
  const kept = segmentedTexts.get(key);
  if (kept) return kept;
  const { offsets, readings } = await offsetsOf(db, text);
  const segmented = segmentedFrom(text.language, text.body, offsets, readings);
  return keep(segmentedTexts, key, segmented, SEGMENTED_KEPT);
}

/** What a text holds for a vocabulary version: its words not in the vocabulary, ignored, and per term. */
type Summary = {
  updatedAt: number;
  words: number;
  fresh: number;
  ignored: number;
  termIds: string[];
  counts: number[];
};

type Summaries = { version: number; texts: Map<string, Summary>; running: Promise<void> | null };
const summaries = new Map<string, Summaries>();
const TEXTS_PER_QUERY = 2;

/** Counts a text's words by what they match in the vocabulary: new, ignored, or a term (by term id). */
function summarise(
  segmented: Pick<Segmented, "words">,
  matches: ReturnType<typeof matchIndexed>,
  updatedAt: Date,
): Summary {
  let fresh = 0;
  let ignored = 0;
  const perTerm = new Map<string, number>();
  for (const match of matches) {
    if (match.termId !== null) perTerm.set(match.termId, (perTerm.get(match.termId) ?? 0) + 1);
    else if (match.stage === "ignored") ignored++;
    else fresh++;
  }
  return {
    updatedAt: updatedAt.getTime(),
    words: segmented.words.length,
    fresh,
    ignored,
    termIds: [...perTerm.keys()],
    counts: [...perTerm.values()],
  };
}

/** Each summary's statistics for the learned set they were worked out with (a new set comes with a new data version). */
const statsKept = new WeakMap<Summary, { learnedIds: Set<string>; stats: TextStats }>();

/** The statistics of a text from its summary and the terms' stages now (a term's words are known once learned). */
export function statsFrom(summary: Summary, learnedIds: Set<string>): TextStats {
  const kept = statsKept.get(summary);
  if (kept?.learnedIds === learnedIds) return kept.stats;
  const stats = countStats(summary, learnedIds);
  statsKept.set(summary, { learnedIds, stats });
  return stats;
}

function countStats(summary: Summary, learnedIds: Set<string>): TextStats {
  let learned = 0;
  for (let i = 0; i < summary.termIds.length; i++)
    if (learnedIds.has(summary.termIds[i]!)) learned += summary.counts[i]!;
  const known = summary.ignored + learned;
  const { words, fresh: unknown } = summary;
  return { words, unknown, learning: words - unknown - known, known, knownShare: words ? known / words : 0 };
}

/**
 * The summaries of the learner's texts in a language for a vocabulary version, as far as they are ready within
 * `waitMs`: the texts still missing are counted in the background, a few at a time with pauses, and come with a later
 * request. `listed` names each text with its last change, so an edited text is counted again.
 */
export async function textSummaries(
  db: Database,
  owner: Owner,
  version: number,
  listed: { id: string; updatedAt: Date }[],
  waitMs: number,
): Promise<Map<string, Summary>> {
  const key = `${owner.userId}:${owner.language}`;
  let entry = summaries.get(key);
  if (!entry || entry.version !== version) entry = { version, texts: new Map(), running: null };
  keep(summaries, key, entry);
  const missing = () =>
    listed.filter((text) => entry!.texts.get(text.id)?.updatedAt !== text.updatedAt.getTime()).map((t) => t.id);
  if (missing().length > 0 && !entry.running) {
    const current = entry;
    current.running = countTexts(db, owner, current, missing())
      .catch((error: unknown) =>
        log.error("counting the words of texts failed", {
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .finally(() => (current.running = null));
  }
  if (entry.running) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([entry.running, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }
  return entry.texts;
}

async function countTexts(db: Database, owner: Owner, entry: Summaries, ids: string[]) {
  const index = await vocabularyIndex(db, owner, entry.version);
  const pause = pauser();
  for (let at = 0; at < ids.length; at += TEXTS_PER_QUERY) {
    const rows = await db
      .select({
        id: texts.id,
        language: texts.language,
        body: texts.body,
        updatedAt: texts.updatedAt,
        segments: texts.segments,
      })
      .from(texts)
      .where(and(eq(texts.userId, owner.userId), inArray(texts.id, ids.slice(at, at + TEXTS_PER_QUERY))));
    for (const row of rows) {
      const { offsets } = await offsetsOf(db, row);
      await pause();
      const segmented = wordsFrom(row.language, row.body, offsets);
      const matches = matchIndexed(index, segmented);
      entry.texts.set(row.id, summarise(segmented, matches, row.updatedAt));
      await pause();
    }
  }
}
