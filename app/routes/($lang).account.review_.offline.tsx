import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/($lang).account.review_.offline";
import { useTranslation } from "../i18n/use-translation";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";
import { requireLearner } from "../learning/learner.server";
import type { OfflineCard, OfflineDeck } from "../learning/offline-review.server";
import { ReviewAnswer, ReviewPrompt } from "../learning/review-card";
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

export const handle: PageHandle = { title: "learning:review.title" };

/** The learner the page was drawn for: the device shows only the cards and grades it stored for them. */
export function loader({ context }: Route.LoaderArgs) {
  return { owner: requireLearner(context).user.id };
}

const GRADE_NAMES: GradeName[] = ["again", "hard", "good", "easy"];
const SYNC_EVERY_MS = 30_000;

type Stored = { deck: OfflineDeck | null; graded: Set<string>; pending: number };
type Sync = { state: "unknown" | "offline" | "online"; sent: number; elsewhere: number; failed: number };

/** When a grade is given (an event, never a render). */
const moment = () => Date.now();

const keyOf = (card: { id: string; version: number }) => `${card.id}:${card.version}`;

/**
 * The review from the cards stored on this device (ADR 065), where the service worker sends the review when the
 * network fails: all four modes, typed answers checked here by the server's own rule, grades kept in IndexedDB with
 * the moment they were given and sent as soon as the server answers again.
 */
export default function OfflineReviewPage({ loaderData }: Route.ComponentProps) {
  const { owner } = loaderData;
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const [stored, setStored] = useState<Stored | null>(null);
  const [sync, setSync] = useState<Sync>({ state: "unknown", sent: 0, elsewhere: 0, failed: 0 });
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
    try {
      // What was sent is counted from the event below, whoever sent it.
      await syncGrades(owner);
      setSync((last) => ({ ...last, state: "online" }));
    } catch {
      setSync((last) => ({ ...last, state: "offline" }));
    }
    await load();
  }, [owner, load]);

  useEffect(() => {
    void Promise.resolve().then(load).then(trySync);
    const again = () => void trySync();
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
    window.addEventListener("online", again);
    const timer = setInterval(again, SYNC_EVERY_MS);
    return () => {
      window.removeEventListener("online", again);
      window.removeEventListener(SYNCED_EVENT, synced);
      clearInterval(timer);
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

  const pending = stored?.pending ?? 0;
  const status = (
    <div className="notice offline-status" role="status">
      {sync.state === "offline" ? (
        <>
          <p>
            <strong>{t("common:offline.reviewOffline")}</strong>
          </p>
          <p>{t("common:offline.waiting", { count: pending })}</p>
        </>
      ) : sync.state === "online" ? (
        <>
          <p>{pending > 0 ? t("common:offline.waiting", { count: pending }) : t("common:offline.allSent")}</p>
          {sync.elsewhere > 0 ? <p>{t("common:offline.elsewhere", { count: sync.elsewhere })}</p> : null}
          {sync.failed > 0 ? <p>{t("common:offline.failed", { count: sync.failed })}</p> : null}
          <p>
            <Link to={to(PATHS.review)} reloadDocument>
              {t("common:offline.backOnline")}
            </Link>
          </p>
        </>
      ) : null}
    </div>
  );

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
    <section className="review-page">
      <h1>{t("review.title")}</h1>
      {status}
      <div className="review-progress">
        <progress value={done} max={done + cards.length} aria-label={t("review.progressLabel")} />
        <p className="hint">{t("review.remaining", { count: cards.filter((c) => c.due <= now).length })}</p>
      </div>
      <div className={revealed ? "review-card review-card-revealed" : "review-card"} tabIndex={-1}>
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
            <fieldset className="grades" aria-describedby={shown.suggested ? "suggested-grade" : undefined}>
              <legend>{t("review.gradeLegend")}</legend>
              {GRADE_NAMES.map((name) => (
                <button
                  key={name}
                  type="button"
                  className={
                    "button grade-button" +
                    (name === "again" ? " button-danger" : "") +
                    (name === shown.suggested ? " button-suggested" : "")
                  }
                  onClick={() => void grade(card, name)}
                >
                  <span className="grade-name">{t(`review.grades.${name}`)}</span>{" "}
                  <span className="grade-interval">{card.intervals[name]}</span>
                </button>
              ))}
            </fieldset>
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
          <div className="reveal">
            <p>{t(card.mode === "forward" ? "review.question" : `review.questions.${card.mode}`)}</p>
            <button
              type="button"
              className="button"
              ref={(element) => {
                front.current = element;
              }}
              onClick={() => setRevealed(true)}
            >
              {t("review.show")}
            </button>
          </div>
        )}
      </div>
    </section>
  );
}

function gradeKeyOf(grade: { termId: string; version: number }) {
  return `${grade.termId}:${grade.version}`;
}
