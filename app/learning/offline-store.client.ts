import { localePath, type Locale } from "../i18n/locales";
import type { OfflineCard, OfflineDeck, OfflineGrade, SyncOutcome } from "./offline-review.server";

/**
 * What the learner's device keeps for the offline review (ADR 065): today's cards (IndexedDB `deck`), the grades given
 * offline (`grades`, keyed by learner, term and the card's version: the idempotency key, so a card's grade is kept
 * once), and the pages and assets the service worker answers with offline (Cache Storage). Everything is kept per
 * learner; sign-out clears it all.
 */

export const DATABASE = "polyglot-offline";
/** The service worker's cache (public/sw.js names it too). */
export const CACHE = "polyglot-offline-v1";
export const META = "/offline-meta.json";
export const SYNC_PATH = "/account/review/sync";
const DECK_PATH = "/account/review/deck";
/** Files of the public folder the stored pages show (icons) or the browser asks for (public/sw.js lists them too). */
export const PUBLIC_FILES = ["/favicon.svg", "/favicon-32.png", "/apple-touch-icon.png", "/site.webmanifest"];

export type StoredGrade = OfflineGrade & { key: string; owner: string };

const gradeKey = (owner: string, termId: string, version: number) => `${owner}:${termId}:${version}`;

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore("deck");
      db.createObjectStore("grades", { keyPath: "key" }).createIndex("owner", "owner");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run<T>(
  store: "deck" | "grades",
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T> | void,
): Promise<T | undefined> {
  const db = await open();
  try {
    return await new Promise<T | undefined>((resolve, reject) => {
      const transaction = db.transaction(store, mode);
      const request = work(transaction.objectStore(store));
      // Resolved once the transaction is committed: a grade stored survives the tab closing right after.
      transaction.oncomplete = () => resolve(request ? request.result : undefined);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

export async function readDeck(): Promise<OfflineDeck | null> {
  return ((await run<OfflineDeck>("deck", "readonly", (store) => store.get("current"))) as OfflineDeck) ?? null;
}

/** Today's cards as the server has them now (null when it cannot be reached or answers otherwise). */
export async function fetchDeck(locale: Locale): Promise<OfflineDeck | null> {
  try {
    const response = await fetch(localePath(locale, DECK_PATH), { credentials: "same-origin" });
    return response.ok ? ((await response.json()) as OfflineDeck) : null;
  } catch {
    return null;
  }
}

/** Fired on `window` when today's cards were stored afresh. */
export const DECK_EVENT = "polyglot:offline-deck";

export async function writeDeck(deck: OfflineDeck): Promise<void> {
  await run("deck", "readwrite", (store) => store.put(deck, "current"));
  window.dispatchEvent(new Event(DECK_EVENT));
}

/** The learner's grades waiting to be sent, in the order they were given. */
export async function pendingGrades(owner: string): Promise<StoredGrade[]> {
  const all = (await run<StoredGrade[]>("grades", "readonly", (store) => store.index("owner").getAll(owner))) ?? [];
  return all.sort((a, b) => a.at - b.at);
}

export async function storeGrade(owner: string, grade: OfflineGrade): Promise<void> {
  const record: StoredGrade = { ...grade, owner, key: gradeKey(owner, grade.termId, grade.version) };
  await run("grades", "readwrite", (store) => store.put(record));
}

async function forget(keys: string[]): Promise<void> {
  await run("grades", "readwrite", (store) => {
    for (const key of keys) store.delete(key);
  });
}

/** What a sync did: grades applied (or already), reviewed elsewhere, refused; left waiting; the cards that come back. */
export type SyncResult = { sent: number; elsewhere: number; failed: number; left: number; back: OfflineCard[] };
/** Fired on `window` when grades were sent, with the SyncResult as its detail. */
export const SYNCED_EVENT = "polyglot:offline-synced";

/**
 * Sends the learner's waiting grades, a hundred at a time, oldest first; every answered grade is forgotten (each
 * outcome is final) and its card leaves the stored deck. Throws when the server cannot be reached (also with nothing
 * to send: the page tells the learner whether they are online): the grades stay.
 */
export function syncGrades(owner: string): Promise<SyncResult> {
  // One sync at a time in a page (the page and the module refreshing the device both ask); a call while one is under
  // way runs once that one ends, for the grades given meanwhile (grades reach the server in the order given).
  if (inFlight) {
    queued ??= inFlight
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return syncGrades(owner);
      });
    return queued;
  }
  inFlight = sendGrades(owner).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

let queued: Promise<SyncResult> | null = null;
let inFlight: Promise<SyncResult> | null = null;
const SYNC_TIMEOUT_MS = 10_000;

async function sendGrades(owner: string): Promise<SyncResult> {
  const result: SyncResult = { sent: 0, elsewhere: 0, failed: 0, left: 0, back: [] };
  let waiting = await pendingGrades(owner);
  // With nothing to send, one empty request still tells whether the server answers.
  do {
    const batch = waiting.slice(0, 100);
    const body = new URLSearchParams({
      owner,
      grades: JSON.stringify(batch.map(({ termId, version, grade, at }) => ({ termId, version, grade, at }))),
    });
    // A request the network holds on to is given up, so the next try (the page's, when back online) starts afresh.
    const response = await fetch(SYNC_PATH, {
      method: "POST",
      body,
      credentials: "same-origin",
      signal: AbortSignal.timeout(SYNC_TIMEOUT_MS),
    });
    // Signed out meanwhile, or another learner signed in: the grades stay for their learner.
    if (response.redirected || response.status === 409) break;
    if (!response.ok) throw new Error(`sync answered ${response.status}`);
    const { outcomes, cards = [] } = (await response.json()) as { outcomes: SyncOutcome[]; cards?: OfflineCard[] };
    await forget(batch.map((grade) => grade.key));
    result.sent += outcomes.filter((outcome) => outcome === "applied" || outcome === "duplicate").length;
    result.elsewhere += outcomes.filter((outcome) => outcome === "elsewhere").length;
    result.failed += outcomes.filter((outcome) => outcome === "failed").length;
    const done = new Set(batch.map((grade) => `${grade.termId}:${grade.version}`));
    result.back.push(...cards);
    const deck = await readDeck();
    if (deck) {
      const kept = deck.cards.filter((card) => !done.has(`${card.id}:${card.version}`));
      await writeDeck({ ...deck, cards: withCardsBack(kept, cards) });
    }
    waiting = waiting.slice(batch.length);
  } while (waiting.length > 0);
  result.left = (await pendingGrades(owner)).length;
  // Whoever sent them (the page or the module that refreshes the device), the offline page tells the learner.
  if (result.sent + result.elsewhere + result.failed > 0)
    window.dispatchEvent(new CustomEvent(SYNCED_EVENT, { detail: result }));
  return result;
}

/**
 * The deck with the cards that come back (a learning step): each replaces the term's older card, in due order.
 */
export function withCardsBack(cards: OfflineCard[], back: OfflineCard[]): OfflineCard[] {
  if (back.length === 0) return cards;
  const ids = new Set(back.map((card) => card.id));
  return [...cards.filter((card) => !ids.has(card.id)), ...back].sort((a, b) => a.due - b.due);
}

/**
 * Sign-out: the stored cards, grades, pages and assets go. Offline (`keepOfflinePage`), the sign-out itself cannot
 * reach the server: only the offline page (and its icons) stays, so the browser shows it rather than its own error.
 * A `worker` given is unregistered last (a page with no signed-in learner clearing what a session left: ADR 096).
 */
export async function clearDevice(keepOfflinePage = false, worker?: ServiceWorkerRegistration): Promise<void> {
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase(DATABASE);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
  if ("caches" in window) await clearCaches(keepOfflinePage);
  await worker?.unregister();
}

async function clearCaches(keepOfflinePage: boolean): Promise<void> {
  const meta = keepOfflinePage ? await caches.match(META) : undefined;
  const offline = meta ? new URL(((await meta.clone().json()) as { offline: string }).offline, location.href) : null;
  for (const name of await caches.keys()) {
    if (!offline || name !== CACHE) {
      await caches.delete(name);
      continue;
    }
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const path = new URL(request.url).pathname;
      if (path !== META && path !== offline.pathname && !PUBLIC_FILES.includes(path)) await cache.delete(request);
    }
  }
}

/** The cards (`id:version`) graded through the review's form in this page. */
export const gradedByForm = new Set<string>();

/**
 * A grade the server applied through the review's form (before the device took over): its card leaves the stored
 * deck, so the review from the device never shows it again at that version.
 */
export async function forgetGradedCard(form: FormData): Promise<void> {
  const termId = form.get("termId");
  const version = Number(form.get("version"));
  if (typeof termId !== "string") return;
  // Also kept in memory for the page: a copy of the deck fetched before this grade may still be stored after it.
  gradedByForm.add(`${termId}:${version}`);
  const deck = await readDeck();
  if (!deck) return;
  const cards = deck.cards.filter((card) => card.id !== termId || card.version !== version);
  if (cards.length < deck.cards.length) await writeDeck({ ...deck, cards });
}

/**
 * A grade whose form could not reach the server (the network dropped in the middle of the review): kept like one given
 * offline, if the device holds cards for this learner and the form names a card and its version. True when kept.
 */
export async function keepUnsentGrade(form: FormData): Promise<boolean> {
  const deck = await readDeck().catch(() => null);
  const termId = form.get("termId");
  const version = Number(form.get("version"));
  const grade = form.get("grade");
  if (!deck || typeof termId !== "string" || !Number.isInteger(version) || typeof grade !== "string") return false;
  if (!["again", "hard", "good", "easy"].includes(grade)) return false;
  if (!deck.cards.some((card) => card.id === termId && card.version === version)) return false;
  await storeGrade(deck.owner, { termId, version, grade: grade as OfflineGrade["grade"], at: Date.now() });
  return true;
}
