import { useEffect, useRef, type ReactNode } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useTranslation } from "../i18n/use-translation";
import { data, Form, Link, redirect, useNavigation, useRevalidator } from "react-router";
import type { Route } from "./+types/($lang).account.review";
import { getDatabase } from "../db/db.server";
import { pageNotFound } from "../http/errors";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath, splitLocale } from "../i18n/locales";
import { isId } from "../learning/ids";
import { requireLearner } from "../learning/learner.server";
import { dayMemory, keptForGrade, learnerDayOf } from "../learning/daily.server";
import { GRADES, type GradeName } from "../learning/stage";
import { gradeTerm } from "../learning/terms.server";
import { frontShownAt, reviewState, type ReviewState } from "../learning/review-page.server";
import { GradeLabel, ReviewAnswer, ReviewPrompt, RevealAction, RevealQuestion } from "../learning/review-card";
import { reviewShortcutsHeader, reviewShortcutsOn } from "../learning/review-shortcuts.server";
import { useReviewShortcuts } from "../learning/review-shortcuts";
import { useInstantReview } from "../learning/instant-review";
import { DeviceReviewScreen } from "../learning/device-review-screen";
import { OfflineStatus } from "../learning/offline-status";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";
import { PATHS } from "../http/paths";
import { GoalMeter } from "../learning/daily-goal";
import { GoalMessage, NextCardCountdown } from "../learning/review-end";
import { dispatchIntents, intent, text } from "../http/intents.server";
import { z } from "zod";

/**
 * Kept in memory for the learner between their writes (a grade is one): the card and the counts change by themselves
 * only when a card falls due or the day ends, the moment the learner's day is read until (`changesAt`).
 */
export const handle: PageHandle & StalenessHandle<{ changesAt: number }> = {
  title: "learning:review.title",
  // Focused while a card is shown; the summary has the whole header, to go on from there.
  focus: (loaderData) => !!(loaderData as { state?: { card: unknown } } | undefined)?.state?.card,
  staleness: { dependsOn: ["learner"], changesAt: ({ changesAt }) => [changesAt], keptForLearner: true },
};

const GRADE_NAMES = Object.keys(GRADES) as GradeName[];

/** The version of the card the grade is for (`version`); a form without one grades the card as it is now. */
const cardVersion = text().pipe(
  z.union([
    z.literal("").transform(() => undefined),
    z
      .string()
      .regex(/^\d{1,9}$/)
      .transform(Number),
  ]),
);

/**
 * One card at a time within today's limits, in the mode its turn gives; `?reveal=1` shows the answer (with `answer=` the
 * typed one is checked; `at=` is when the front was shown, so both sides count the same cards), so it works without
 * JavaScript: a card costs two round trips, the reveal and the grade (whose redirect brings the next card).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, owner } = requireLearner(context);
  const params = new URL(request.url).searchParams;
  const db = await getDatabase();
  // The day and queue the header's count read too: one read per request.
  const known = await learnerDayOf(context, db, owner, dayMemory(request, user));
  const now = known.now;
  const revealed = params.get("reveal") === "1";
  const [state, shortcuts] = await Promise.all([
    reviewState(
      db,
      owner,
      {
        revealed,
        answer: params.get("answer"),
        shownAt: revealed ? frontShownAt(params.get("at"), now) : null,
        locale: requestLocale(context),
      },
      now,
      known,
    ),
    reviewShortcutsOn(request),
  ]);
  return { state, shortcuts, owner: user.id, changesAt: known.validUntil };
}

// The forms this action takes, built once: building a schema costs more than parsing a form with it.
const shortcutsFields = z.object({ shortcuts: z.enum(["on", "off"]), revealed: text() });
const gradeFields = z.object({ grade: z.enum(GRADE_NAMES), termId: text(), version: cardVersion });

export async function action({ request, context }: Route.ActionArgs) {
  const { user, owner } = requireLearner(context);
  const { t } = getInstance(context);
  const back = localePath(requestLocale(context), PATHS.review);
  const invalidGrade = () => data({ message: t("learning:errors.invalidGrade") }, { status: 400 });
  return dispatchIntents(
    request,
    {
      shortcuts: intent({
        schema: shortcutsFields,
        run: async ({ shortcuts, revealed }) =>
          redirect(back + (revealed === "1" ? "?reveal=1" : ""), {
            status: 303,
            headers: { "Set-Cookie": await reviewShortcutsHeader(shortcuts === "on") },
          }),
        invalid: () => data({ message: t("learning:review.invalidShortcuts") }, { status: 400 }),
      }),
      grade: intent({
        schema: gradeFields,
        run: async ({ grade, termId, version }) => {
          if (!isId(termId)) pageNotFound(request);
          // The scheduler and the card of the learner's day as the card was shown, when kept for the data version read
          // now: the grade then writes without reading first.
          const kept = await keptForGrade(owner, user.dataVersion);
          const db = await getDatabase();
          const graded = await gradeTerm(db, user.id, termId, grade, new Date(), version, kept?.scheduler, kept?.card);
          if (!graded) pageNotFound(request);
          // Back to the next due term, answer hidden; a grade of a version already graded (the same form sent twice)
          // changed nothing and answers the same, so a second submit looks like the first.
          return redirect(back, 303);
        },
        invalid: invalidGrade,
      }),
    },
    // The grade form names no intent; any other form is a grade that is not one.
    { fallback: "grade", unknown: invalidGrade, invalid: invalidGrade },
  );
}

/** A request the network dropped (not an answer of the server): `fetch` rejects with a TypeError. */
const unreachable = (error: unknown) => error instanceof TypeError;

/** The stored review (ADR 065): the service worker answers it from the device while the network is gone. */
function continueOffline(): Promise<never> {
  window.location.assign(localePath(splitLocale(window.location.pathname).locale, PATHS.offlineReview));
  return new Promise<never>(() => undefined);
}

/** With JavaScript, a grade the network drops is kept on the device and the review goes on from the stored cards. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const form = await request.clone().formData();
  try {
    return await serverAction();
  } catch (error) {
    // A grade applied answers with a redirect to the next card: the device's copy of today's cards follows (ADR
    // 117), so the review from the device never shows the card just graded again.
    if (error instanceof Response && form.has("grade") && "indexedDB" in window) {
      const { forgetGradedCard } = await import("../learning/offline-store.client");
      await forgetGradedCard(form).catch(() => undefined);
      throw error;
    }
    if (!unreachable(error) || !("caches" in window)) throw error;
    const { keepUnsentGrade } = await import("../learning/offline-store.client");
    await keepUnsentGrade(form).catch(() => false);
    return continueOffline();
  }
}

/** The next card or the answer, when the network is gone: the stored review instead of an error page. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  try {
    return await serverLoader();
  } catch (error) {
    if (!unreachable(error) || !navigator.serviceWorker?.controller) throw error;
    return continueOffline();
  }
}

export default function ReviewPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("learning");
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const hydrated = useHydrated();
  const { state, shortcuts, owner } = loaderData;
  const card = state.card;
  const revealed = !!card?.answer;
  const instant = useInstantReview(
    owner,
    // Not while the server's page is changing (an answer or a grade on its way): the device goes on from its result.
    card && !revealed && !pending ? `${card.id}:${card.version}` : null,
    state.card ? state.done : 0,
  );
  const gradeForm = useRef<HTMLFormElement>(null);
  const cardElement = useRef<HTMLDivElement>(null);
  const answer = useRef<HTMLDivElement>(null);
  const showAnswer = useRef<HTMLButtonElement>(null);
  const at = state.card ? state.at : 0;
  useReviewShortcuts({
    enabled: shortcuts && !!card && !instant.on,
    revealed,
    revealTo: `?at=${at}&reveal=1`,
    card: cardElement,
    gradeForm,
    grades: GRADE_NAMES,
  });

  // Focus follows the card: the revealed answer, else the next card's "Show answer" or, for a typed answer, its field
  // (autofocus does it without JavaScript).
  const termId = card?.id;
  useEffect(() => {
    if (!termId) return;
    if (revealed) answer.current?.focus();
    else showAnswer.current?.focus();
  }, [termId, revealed]);

  // Shortcuts need JavaScript: without it the page neither offers nor mentions them.
  const shortcutsSetting = hydrated ? (
    <Form method="post" className="inline-form shortcuts-setting">
      <input type="hidden" name="intent" value="shortcuts" />
      {revealed ? <input type="hidden" name="revealed" value="1" /> : null}
      <p className="hint">{shortcuts ? t("review.keys") : t("review.shortcutsOff")}</p>
      <button
        type="submit"
        name="shortcuts"
        value={shortcuts ? "off" : "on"}
        className="button button-small button-secondary"
      >
        {shortcuts ? t("review.turnOff") : t("review.turnOn")}
      </button>
    </Form>
  ) : null;

  if (instant.on)
    return (
      <InstantReview
        instant={instant}
        shortcuts={shortcuts}
        setting={shortcutsSetting}
        goal={<GoalMeter goal={state.goal} compact />}
      />
    );
  if (!state.card) return <NothingNow state={state} />;
  const current = state.card;
  const total = state.done + state.remaining;
  const keys = hydrated && shortcuts;
  return (
    <section className="review-page review-focus">
      <h1 className="visually-hidden">{t("review.title")}</h1>
      <div className="review-progress">
        <progress value={state.done} max={total} aria-label={t("review.progressLabel")} />
        <p className="hint">{t("review.remaining", { count: state.remaining })}</p>
        <GoalMeter goal={state.goal} compact />
      </div>
      {actionData?.message ? (
        <p className="error-text" role="alert">
          {actionData.message}
        </p>
      ) : null}
      {/* Screen readers hear each new card; the revealed answer is read where the focus moves to it. */}
      <p className="visually-hidden" role="status">
        {t("review.announceCard", {
          text: current.prompt.text ?? current.prompt.meaning ?? t(`review.modes.${current.mode}`),
        })}
      </p>
      <div className={revealed ? "review-card review-card-revealed" : "review-card"} ref={cardElement} tabIndex={-1}>
        <ReviewPrompt card={current} />
        {revealed ? (
          <>
            <div className="review-answer" ref={answer} tabIndex={-1} autoFocus>
              <ReviewAnswer card={current} />
            </div>
            {current.suggested ? (
              <p className="hint" id="suggested-grade">
                {t("review.suggested", { grade: t(`review.grades.${current.suggested}`) })}
              </p>
            ) : null}
          </>
        ) : current.mode === "typed" ? (
          <RevealAction card={current} at={at} shortcuts={shortcuts} hydrated={hydrated} showAnswer={showAnswer} />
        ) : (
          <RevealQuestion card={current} />
        )}
      </div>
      {/* One bar at one place for both sides: "Show answer", then the grades (at the bottom on phones). */}
      <div className="review-bar">
        {revealed ? (
          <Form method="post" ref={gradeForm} aria-busy={pending}>
            <input type="hidden" name="termId" value={current.id} />
            <input type="hidden" name="version" value={current.version} />
            <fieldset className="grades" aria-describedby={current.suggested ? "suggested-grade" : undefined}>
              <legend className="visually-hidden">{t("review.gradeLegend")}</legend>
              {GRADE_NAMES.map((grade, index) => (
                <button
                  key={grade}
                  type="submit"
                  name="grade"
                  value={grade}
                  className={
                    `button grade-button grade-${grade}` + (grade === current.suggested ? " button-suggested" : "")
                  }
                  disabled={pending}
                  aria-keyshortcuts={keys ? String(index + 1) : undefined}
                >
                  <GradeLabel name={grade} index={index} keys={keys} interval={current.intervals[grade]} />
                </button>
              ))}
            </fieldset>
          </Form>
        ) : current.mode === "typed" ? null : (
          <RevealAction card={current} at={at} shortcuts={shortcuts} hydrated={hydrated} showAnswer={showAnswer} />
        )}
      </div>
      {shortcutsSetting}
    </section>
  );
}

/** The review from the cards on the device (ADR 117); what the server answered about the grades sent, as offline. */
function InstantReview({
  instant: { review, doneBefore, typed },
  shortcuts,
  setting,
  goal,
}: {
  instant: ReturnType<typeof useInstantReview>;
  shortcuts: boolean;
  setting: ReactNode;
  goal: ReactNode;
}) {
  const { t } = useTranslation();
  const { sync } = review;
  const status =
    sync.state === "offline" ? (
      <OfflineStatus sync={sync} pending={review.pending} />
    ) : sync.elsewhere + sync.failed > 0 ? (
      <div className="notice offline-status" role="status">
        {sync.elsewhere > 0 ? <p>{t("offline.elsewhere", { count: sync.elsewhere })}</p> : null}
        {sync.failed > 0 ? <p>{t("offline.failed", { count: sync.failed })}</p> : null}
      </div>
    ) : null;
  if (!review.card) {
    // The last grades on their way; then the server's page.
    return (
      <section className="review-page review-focus" data-review="device">
        <h1 className="visually-hidden">{t("learning:review.title")}</h1>
        {status}
        <p className="hint" role="status">
          {t("offline.waiting", { count: review.pending })}
        </p>
      </section>
    );
  }
  return (
    <DeviceReviewScreen
      review={review}
      card={review.card}
      shortcuts={shortcuts}
      done={doneBefore + review.pending + sync.sent}
      status={status}
      setting={setting}
      goal={goal}
      typed={typed}
    />
  );
}

/** Nothing to review now: when the next card of today comes (a card due within a minute comes back by itself). */
function NothingNow({ state }: { state: Extract<ReviewState, { card: null }> }) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const { summary, nextDueAt } = state;
  const soon = nextDueAt !== null && state.minutes !== null && state.minutes <= 1;
  return (
    <section className="review-page">
      <h1>{t("review.title")}</h1>
      {summary ? <SessionSummary summary={summary} /> : null}
      {summary ? <GoalMessage goal={state.goal} /> : null}
      {soon ? (
        <NextCardCountdown nextDueAt={nextDueAt} />
      ) : state.minutes !== null ? (
        <>
          <p className="lead" role="status">
            {t("review.nextIn", { count: state.minutes })}
          </p>
          <p className="hint">{t("review.nextInHint")}</p>
          <NextCardLater nextDueAt={nextDueAt} />
        </>
      ) : (
        <p className="lead">{t("review.done")}</p>
      )}
      {state.newLimitReached || state.reviewLimitReached ? (
        <p className="hint">
          {t("review.limitReached")} <Link to={to(PATHS.settings)}>{t("review.changeLimits")}</Link>
        </p>
      ) : null}
      <p className="actions">
        <Link to={to(PATHS.learnerHome)}>{t("review.backHome")}</Link>
      </p>
    </section>
  );
}

/** With JavaScript, the page reads the review again once the next card of today is due (fresh minutes each minute). */
function NextCardLater({ nextDueAt }: { nextDueAt: string | null }) {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (!nextDueAt) return;
    const wait = Math.min(Math.max(new Date(nextDueAt).getTime() - Date.now(), 0) + 500, 60_000);
    const timer = setTimeout(() => void revalidate(), wait);
    return () => clearTimeout(timer);
  }, [nextDueAt, revalidate]);
  return null;
}

/** Today's reviews in this language, when nothing waits now: how many, how many right, how long, what comes next. */
function SessionSummary({ summary }: { summary: NonNullable<Extract<ReviewState, { card: null }>["summary"]> }) {
  const { t, i18n } = useTranslation("learning");
  const locale = i18n.language;
  const percent = new Intl.NumberFormat(locale, { style: "percent" }).format(summary.correct);
  const minutes = new Intl.NumberFormat(locale, { style: "unit", unit: "minute", unitDisplay: "long" }).format(
    summary.minutes,
  );
  return (
    <section className="review-summary" aria-labelledby="summary-title">
      <h2 id="summary-title">{t("review.summary.title")}</h2>
      <dl>
        <div>
          <dt>{t("review.summary.reviewed")}</dt>
          <dd>{new Intl.NumberFormat(locale).format(summary.reviewed)}</dd>
        </div>
        <div>
          <dt>{t("review.summary.correct")}</dt>
          <dd>{percent}</dd>
        </div>
        <div>
          <dt>{t("review.summary.time")}</dt>
          <dd>{minutes}</dd>
        </div>
        <div>
          <dt>{t("review.summary.nextDue")}</dt>
          <dd>{summary.nextDue ?? t("review.summary.nothingScheduled")}</dd>
        </div>
        <div>
          <dt>{t("review.summary.streak")}</dt>
          <dd>{t("review.summary.days", { count: summary.streak })}</dd>
        </div>
      </dl>
    </section>
  );
}
