import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/($lang).account.review_.offline";
import { useTranslation } from "../i18n/use-translation";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";
import { requireLearner } from "../learning/learner.server";
import type { OfflineCard, OfflineDeck } from "../learning/offline-review.server";
import { GradeLabel, ReviewAnswer, ReviewPrompt, RevealQuestion } from "../learning/review-card";
import { useReviewKeys } from "../learning/review-shortcuts";
import { reviewShortcutsOn } from "../learning/review-shortcuts.server";
import { charDiff, checkAnswer, SUGGESTED_GRADE } from "../learning/review-modes";
import type { GradeName } from "../learning/stage";
import {
  pendingGrades,
  readDeck,
  storeGrade,
  syncGrades,
  SYNCED_EVENT,
  type SyncResult,
} from "../learning/offline-store.client";
import type { PageHandle } from "../ui/seo";
import { OfflineStatus, type OfflineSync } from "../learning/offline-status";

export const handle: PageHandle = { title: "learning:review.title", focus: "sign-out" };

/**
 * The learner the page was rendered for (the device shows only the cards and grades it stored for them), and whether
 * they use the review's keys, as when the page was stored.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return { owner: requireLearner(context).user.id, shortcuts: await reviewShortcutsOn(request) };
}

const GRADE_NAMES: GradeName[] = ["again", "hard", "good", "easy"];
const SYNC_EVERY_MS = 30_000;
/** Back online (the browser's `online` event), the grades go at once, and again after these pauses if it failed. */
const RETRIES_MS = [500, 1_000, 2_000, 4_000];

type Stored = { deck: OfflineDeck | null; graded: Set<string>; pending: number };

/** When a grade is given (an event, never a render). */
const moment = () => Date.now();

const keyOf = (card: { id: string; version: number }) => `${card.id}:${card.version}`;

/**
 * The review from the cards stored on this device (ADR 065), where the service worker sends the review when the
 * network fails: all four modes, typed answers checked here by the server's own rule, grades kept in IndexedDB with
 * the moment they were given and sent as soon as the server answers again.
 */
export default function OfflineReviewPage({ loaderData }: Route.ComponentProps) {
  const { owner, shortcuts } = loaderData;
  const { t } = useTranslation("learning");
  // The stored page carries the parts of speech's translations as the online review does: the server render resolves
  // one, so their namespace goes with the page (app/i18n/used-namespaces.server.ts).
  useTranslation("lists").t("partsOfSpeech.noun");
  const to = useLocalePath();
  const [stored, setStored] = useState<Stored | null>(null);
  const [sync, setSync] = useState<OfflineSync>({ state: "unknown", sent: 0, elsewhere: 0, failed: 0 });
  const [revealed, setRevealed] = useState(false);
  const [typed, setTyped] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const answer = useRef<HTMLDivElement>(null);
  const front = useRef<HTMLButtonElement | HTMLInputElement | null>(null);

  const load = useCallback(async () => {
    const deck = await readDeck().catch(() => null);
    // Another learner's cards (the last one signed in on this browser) are never shown.
    const own = deck && deck.owner === owner ? deck : null;
    const pending = own ? await pendingGrades(owner) : [];
    setStored({ deck: own, graded: new Set(pending.map(gradeKeyOf)), pending: pending.length });
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
    const back = () => {
      clearTimeout(retry);
      const attempt = (turn: number) =>
        void trySync().then((reached) => {
          if (!reached && turn < RETRIES_MS.length) retry = setTimeout(() => attempt(turn + 1), RETRIES_MS[turn]);
        });
      attempt(0);
    };
    const synced = (event: Event) => {
      const { sent, elsewhere, failed } = (event as CustomEvent<SyncResult>).detail;
      setSync((last) => ({
        state: "online",
        sent: last.sent + sent,
        elsewhere: last.elsewhere + elsewhere,
        failed: last.failed + failed,
      }));
      void load();
    };
    window.addEventListener(SYNCED_EVENT, synced);
    window.addEventListener("online", back);
    const timer = setInterval(again, SYNC_EVERY_MS);
    return () => {
      window.removeEventListener("online", back);
      window.removeEventListener(SYNCED_EVENT, synced);
      clearInterval(timer);
      clearTimeout(retry);
    };
  }, [load, trySync]);

  const cards = stored?.deck?.cards.filter((card) => !stored.graded.has(keyOf(card))) ?? [];
  const card = cards.find((candidate) => candidate.due <= now) ?? null;
  const cardKey = card ? keyOf(card) : null;

  useEffect(() => {
    if (!cardKey) return;
    if (revealed) answer.current?.focus();
    else front.current?.focus();
  }, [cardKey, revealed]);

  const cardElement = useRef<HTMLDivElement>(null);
  useReviewKeys({
    enabled: shortcuts && card !== null,
    revealed,
    card: cardElement,
    reveal: () => setRevealed(true),
    grade: (index) => {
      if (card) void grade(card, GRADE_NAMES[index]!);
    },
  });

  async function grade(current: OfflineCard, name: GradeName) {
    // Stored (committed) before the next card shows: a tab closed right after loses nothing.
    await storeGrade(owner, { termId: current.id, version: current.version, grade: name, at: moment() });
    // One render: the next card's front, never the graded card's front again.
    setStored((last) =>
      last ? { ...last, graded: new Set(last.graded).add(keyOf(current)), pending: last.pending + 1 } : last,
    );
    setRevealed(false);
    setTyped(null);
    setNow(moment());
    if (sync.state === "online") void trySync();
  }

  const status = <OfflineStatus sync={sync} pending={stored?.pending ?? 0} />;

  if (!stored) {
    return (
      <section className="review-page">
        <h1>{t("review.title")}</h1>
        <p className="hint">{t("common:offline.loading")}</p>
        <p className="actions">
          <Link to={to(PATHS.review)}>{t("common:offline.reviewOnline")}</Link>
        </p>
      </section>
    );
  }

  if (!card) {
    const later = cards.find((candidate) => candidate.due < (stored.deck?.dayEnd ?? 0));
    return (
      <section className="review-page">
        <h1>{t("review.title")}</h1>
        {status}
        <p className="lead">
          {stored.deck === null
            ? t("common:offline.nothingStored")
            : later
              ? t("review.nextIn", { count: Math.max(1, Math.ceil((later.due - now) / 60_000)) })
              : t("review.done")}
        </p>
        <p className="actions">
          <Link to={to(PATHS.learnerHome)} reloadDocument>
            {t("review.backHome")}
          </Link>
        </p>
      </section>
    );
  }

  const check = card.mode === "typed" && typed !== null ? checkAnswer(card.answer!.text, typed, card.language) : null;
  const shown: OfflineCard = {
    ...card,
    answer: revealed
      ? {
          ...card.answer!,
          typed: typed === null ? null : { given: typed, check: check!, diff: charDiff(card.answer!.text, typed) },
        }
      : null,
    suggested: check ? SUGGESTED_GRADE[check] : null,
  };
  const done = stored.pending + sync.sent;
  return (
    <section className="review-page review-focus">
      <h1 className="visually-hidden">{t("review.title")}</h1>
      {status}
      <div className="review-progress">
        <progress value={done} max={done + cards.length} aria-label={t("review.progressLabel")} />
        <p className="hint">{t("review.remaining", { count: cards.filter((c) => c.due <= now).length })}</p>
      </div>
      <div className={revealed ? "review-card review-card-revealed" : "review-card"} ref={cardElement} tabIndex={-1}>
        <ReviewPrompt card={shown} />
        {revealed ? (
          <>
            <div className="review-answer" ref={answer} tabIndex={-1}>
              <ReviewAnswer card={shown} />
            </div>
            {shown.suggested ? (
              <p className="hint" id="suggested-grade">
                {t("review.suggested", { grade: t(`review.grades.${shown.suggested}`) })}
              </p>
            ) : null}
          </>
        ) : card.mode === "typed" ? (
          <form
            className="typed-answer"
            onSubmit={(event) => {
              event.preventDefault();
              const value = new FormData(event.currentTarget).get("answer");
              setTyped(String(value ?? "").slice(0, 200));
              setRevealed(true);
            }}
          >
            <label htmlFor="typed-answer">{t("review.typeTheTerm")}</label>
            <input
              id="typed-answer"
              ref={(element) => {
                front.current = element;
              }}
              name="answer"
              lang={card.language}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              maxLength={200}
            />
            <button type="submit" className="button">
              {t("review.check")}
            </button>
          </form>
        ) : (
          <RevealQuestion card={card} />
        )}
      </div>
      <div className="review-bar">
        {revealed ? (
          <fieldset className="grades" aria-describedby={shown.suggested ? "suggested-grade" : undefined}>
            <legend className="visually-hidden">{t("review.gradeLegend")}</legend>
            {GRADE_NAMES.map((name, index) => (
              <button
                key={name}
                type="button"
                className={`button grade-button grade-${name}` + (name === shown.suggested ? " button-suggested" : "")}
                aria-keyshortcuts={shortcuts ? String(index + 1) : undefined}
                onClick={() => void grade(card, name)}
              >
                <GradeLabel name={name} index={index} keys={shortcuts} interval={card.intervals[name]} />
              </button>
            ))}
          </fieldset>
        ) : card.mode === "typed" ? null : (
          <div className="reveal">
            <button
              type="button"
              className="button"
              ref={(element) => {
                front.current = element;
              }}
              aria-keyshortcuts={shortcuts ? "Space Enter" : undefined}
              onClick={() => setRevealed(true)}
            >
              {t("review.show")}
            </button>
          </div>
        )}
      </div>
      {shortcuts ? <p className="hint review-keys">{t("review.keys")}</p> : null}
    </section>
  );
}

function gradeKeyOf(grade: { termId: string; version: number }) {
  return `${grade.termId}:${grade.version}`;
}
