import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { OfflineCard, OfflineDeck } from "./offline-review.server";
import type { OfflineSync } from "./offline-status";
import type { GradeName } from "./stage";
import {
  DECK_EVENT,
  gradedByForm,
  pendingGrades,
  readDeck,
  storeGrade,
  syncGrades,
  SYNCED_EVENT,
  withCardsBack,
  type SyncResult,
} from "./offline-store.client";

/**
 * The review from the cards on the device (ADRs 065, 117), for the offline review and the review with JavaScript
 * alike: the stored deck, the grades given here kept in IndexedDB with the moment they were given and sent in the
 * background, in order, as soon as the server answers; the cards the answers bring back (a learning step) return in
 * the same session.
 */

const SYNC_EVERY_MS = 30_000;
/** Back online (the browser's `online` event), the grades go at once, and again after these pauses if it failed. */
const RETRIES_MS = [500, 1_000, 2_000, 4_000];

type Stored = { deck: OfflineDeck | null; graded: Set<string>; pending: number };

export const cardKey = (card: { id: string; version: number }) => `${card.id}:${card.version}`;
const gradeKey = (grade: { termId: string; version: number }) => `${grade.termId}:${grade.version}`;

/** When a grade is given (an event, never a render). */
const moment = () => Date.now();

export type DeviceReview = {
  /** Null until the device's copy was read. */
  deck: OfflineDeck | null;
  loaded: boolean;
  /** Cards not graded in this session, in due order. */
  cards: OfflineCard[];
  /** The card to show now: `first` while not graded, else the first one due. */
  card: OfflineCard | null;
  pending: number;
  sync: OfflineSync;
  now: number;
  /** Whether the device holds this card, ungraded. */
  holds: (key: string) => boolean;
  /** Whether the device holds this card, graded here or not. */
  knows: (key: string) => boolean;
  grade: (card: OfflineCard, name: GradeName) => Promise<void>;
  load: () => Promise<void>;
};

export function useDeviceReview(owner: string, first: string | null = null): DeviceReview {
  const [stored, setStored] = useState<Stored | null>(null);
  const [sync, setSync] = useState<OfflineSync>({ state: "unknown", sent: 0, elsewhere: 0, failed: 0 });
  const [now, setNow] = useState(() => Date.now());
  // The cards the server sent back in this session: kept here too, in case the device's copy is replaced meanwhile.
  const back = useRef(new Map<string, OfflineCard>());

  // Reads may end out of order: only the latest one started is used.
  const reads = useRef(0);
  const load = useCallback(async () => {
    const read = ++reads.current;
    const deck = await readDeck().catch(() => null);
    // Another learner's cards (the last one signed in on this browser) are never shown.
    const own = deck && deck.owner === owner ? deck : null;
    const pending = own ? await pendingGrades(owner) : [];
    if (read !== reads.current) return;
    const newer = own ? [...back.current.values()].filter((card) => isNewer(card, own.cards)) : [];
    setStored((last) => ({
      deck: own && { ...own, cards: withCardsBack(own.cards, newer) },
      // A card graded in this session never shows again, whatever copy of the deck the device holds.
      graded: new Set([...(last?.graded ?? []), ...pending.map(gradeKey), ...gradedByForm]),
      pending: pending.length,
    }));
    setNow(Date.now());
  }, [owner]);

  const trySync = useCallback(async () => {
    let reached = true;
    try {
      // What was sent is counted from the event below, whoever sent it.
      await syncGrades(owner);
      setSync((last) => ({ ...last, state: "online" }));
    } catch {
      reached = false;
      setSync((last) => ({ ...last, state: "offline" }));
    }
    await load();
    return reached;
  }, [owner, load]);

  useEffect(() => {
    void Promise.resolve().then(load).then(trySync);
    let retry: ReturnType<typeof setTimeout> | undefined;
    const again = () => void trySync();
    // The network may answer a moment after the browser says it is back: a few quick tries, not the long wait.
    const online = () => {
      clearTimeout(retry);
      const attempt = (turn: number) =>
        void trySync().then((reached) => {
          if (!reached && turn < RETRIES_MS.length) retry = setTimeout(() => attempt(turn + 1), RETRIES_MS[turn]);
        });
      attempt(0);
    };
    const synced = (event: Event) => {
      const { sent, elsewhere, failed, back: cards } = (event as CustomEvent<SyncResult>).detail;
      for (const card of cards) back.current.set(card.id, card);
      setSync((last) => ({
        state: "online",
        sent: last.sent + sent,
        elsewhere: last.elsewhere + elsewhere,
        failed: last.failed + failed,
      }));
      void load();
    };
    const written = () => void load();
    window.addEventListener(SYNCED_EVENT, synced);
    window.addEventListener(DECK_EVENT, written);
    window.addEventListener("online", online);
    const timer = setInterval(again, SYNC_EVERY_MS);
    return () => {
      window.removeEventListener("online", online);
      window.removeEventListener(SYNCED_EVENT, synced);
      window.removeEventListener(DECK_EVENT, written);
      clearInterval(timer);
      clearTimeout(retry);
    };
  }, [load, trySync]);

  const cards = useMemo(() => stored?.deck?.cards.filter((card) => !stored.graded.has(cardKey(card))) ?? [], [stored]);
  const card =
    (first ? cards.find((candidate) => cardKey(candidate) === first) : undefined) ??
    cards.find((candidate) => candidate.due <= now) ??
    null;
  // Nothing due now, a card due later today (a learning step): it shows when due.
  const nextDue = card ? null : (cards.find((candidate) => candidate.due > now)?.due ?? null);
  useEffect(() => {
    if (nextDue === null) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(nextDue - Date.now(), 0) + 100);
    return () => clearTimeout(timer);
  }, [nextDue]);
  const holds = useCallback((key: string) => cards.some((candidate) => cardKey(candidate) === key), [cards]);
  const knows = useCallback(
    (key: string) => !!stored?.deck?.cards.some((candidate) => cardKey(candidate) === key) || !!stored?.graded.has(key),
    [stored],
  );
  const offline = sync.state === "offline";

  const grade = useCallback(
    async (current: OfflineCard, name: GradeName) => {
      // Stored (committed) before the next card shows: a tab closed right after loses nothing.
      await storeGrade(owner, { termId: current.id, version: current.version, grade: name, at: moment() });
      // One render: the next card's front, never the graded card's front again.
      setStored((last) =>
        last ? { ...last, graded: new Set(last.graded).add(cardKey(current)), pending: last.pending + 1 } : last,
      );
      setNow(moment());
      // Sent in the background; offline, the browser's `online` event sends it.
      if (!offline) void trySync();
    },
    [owner, offline, trySync],
  );

  return {
    deck: stored?.deck ?? null,
    loaded: stored !== null,
    cards,
    card,
    pending: stored?.pending ?? 0,
    sync,
    now,
    holds,
    knows,
    grade,
    load,
  };
}

function isNewer(card: OfflineCard, cards: OfflineCard[]): boolean {
  const held = cards.find((candidate) => candidate.id === card.id);
  return !held || held.version < card.version;
}
