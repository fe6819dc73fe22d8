import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/($lang).account.review";
import { getDatabase } from "../db/db.server";
import { pageNotFound } from "../http/errors";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { isId } from "../learning/ids";
import { requireLearner } from "../learning/learner.server";
import { GRADES, type GradeName } from "../learning/stage";
import { dueCount, examplesOf, gradeTerm, nextDue, stageOf } from "../learning/terms.server";
import { reviewShortcutsHeader, reviewShortcutsOn } from "../learning/review-shortcuts.server";
import { StageBadge } from "../learning/ui";
import { useReviewShortcuts } from "../learning/review-shortcuts";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { PATHS } from "../http/paths";
import { readForm } from "../http/request-body.server";

export const handle: PageHandle = { title: "learning:review.title" };

const GRADE_NAMES = Object.keys(GRADES) as GradeName[];

/** One due term at a time; `?reveal=1` shows the answer, so it works without JavaScript. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { owner } = requireLearner(context);
  const db = await getDatabase();
  const now = new Date();
  const term = await nextDue(db, owner, now);
  const shortcuts = await reviewShortcutsOn(request);
  if (!term) return { term: null, remaining: 0, revealed: false, shortcuts };
  const revealed = new URL(request.url).searchParams.get("reveal") === "1";
  return {
    term: {
      id: term.id,
      text: term.text,
      language: term.language,
      partOfSpeech: term.partOfSpeech,
      stage: stageOf(term, now),
      meaning: revealed ? term.meaning : null,
      notes: revealed ? term.notes : null,
      examples: revealed
        ? (await examplesOf(db, term.id)).map((e) => ({ id: e.id, sentence: e.sentence, translation: e.translation }))
        : [],
    },
    remaining: await dueCount(db, owner, now),
    revealed,
    shortcuts,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = requireLearner(context);
  const { t } = getInstance(context);
  const form = await readForm(request);
  const back = localePath(requestLocale(context), PATHS.review);
  if (form.get("intent") === "shortcuts") {
    const choice = form.get("shortcuts");
    if (choice !== "on" && choice !== "off")
      return data({ message: t("learning:review.invalidShortcuts") }, { status: 400 });
    const revealed = form.get("revealed") === "1" ? "?reveal=1" : "";
    return redirect(back + revealed, {
      status: 303,
      headers: { "Set-Cookie": await reviewShortcutsHeader(choice === "on") },
    });
  }
  const grade = String(form.get("grade") ?? "");
  const termId = String(form.get("termId") ?? "");
  if (!GRADE_NAMES.includes(grade as GradeName))
    return data({ message: t("learning:errors.invalidGrade") }, { status: 400 });
  if (!isId(termId)) pageNotFound(request);
  const graded = await gradeTerm(await getDatabase(), user.id, termId, grade as GradeName);
  if (!graded) pageNotFound(request);
  // Back to the next due term, answer hidden.
  return redirect(back, 303);
}

export default function ReviewPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const { term, remaining, revealed, shortcuts } = loaderData;
  const gradeForm = useRef<HTMLFormElement>(null);
  const card = useRef<HTMLDivElement>(null);
  const answer = useRef<HTMLDivElement>(null);
  const showAnswer = useRef<HTMLAnchorElement>(null);
  useReviewShortcuts({ enabled: shortcuts && !!term, revealed, card, gradeForm, grades: GRADE_NAMES });

  // Focus follows the card: the revealed answer, else the next card's "Show answer" (autofocus does it without JavaScript).
  const termId = term?.id;
  useEffect(() => {
    if (termId) (revealed ? answer.current : showAnswer.current)?.focus();
  }, [termId, revealed]);

  const shortcutsSetting = (
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
  );

  if (!term) {
    return (
      <section>
        <h1>{t("review.title")}</h1>
        <p className="lead">{t("review.done")}</p>
        <p className="actions">
          <Link to={to(PATHS.learnerHome)}>{t("review.backHome")}</Link>
        </p>
      </section>
    );
  }
  return (
    <section>
      <h1>{t("review.title")}</h1>
      <p className="hint">{t("review.remaining", { count: remaining })}</p>
      {actionData?.message ? (
        <p className="error-text" role="alert">
          {actionData.message}
        </p>
      ) : null}
      {/* Screen readers hear each new card; the revealed answer is read where the focus moves to it. */}
      <p className="visually-hidden" role="status">
        {t("review.announceCard", { text: term.text })}
      </p>
      <div className="review-card" ref={card} tabIndex={-1}>
        <p className="eyebrow">
          {t(`partsOfSpeech.${term.partOfSpeech}`)} · <StageBadge stage={term.stage} />
        </p>
        <p className="review-term" lang={term.language}>
          {term.text}
        </p>
        {revealed ? (
          <>
            <div className="review-answer" ref={answer} tabIndex={-1} autoFocus>
              <p className="lead">{term.meaning}</p>
              {term.notes ? <p>{term.notes}</p> : null}
              {term.examples.length > 0 ? (
                <ul className="examples">
                  {term.examples.map((example) => (
                    <li key={example.id}>
                      <span lang={term.language}>{example.sentence}</span>
                      {example.translation ? <span className="hint"> — {example.translation}</span> : null}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
            <Form method="post" ref={gradeForm} aria-busy={pending}>
              <input type="hidden" name="termId" value={term.id} />
              <fieldset className="grades">
                <legend>{t("review.gradeLegend")}</legend>
                {GRADE_NAMES.map((grade, index) => (
                  <button
                    key={grade}
                    type="submit"
                    name="grade"
                    value={grade}
                    className={grade === "again" ? "button button-danger" : "button"}
                    disabled={pending}
                    aria-keyshortcuts={shortcuts ? String(index + 1) : undefined}
                  >
                    {index + 1} · {t(`review.grades.${grade}`)}
                  </button>
                ))}
              </fieldset>
            </Form>
          </>
        ) : (
          <>
            <p>{t("review.question")}</p>
            <Link
              className="button"
              to="?reveal=1"
              replace
              ref={showAnswer}
              autoFocus
              aria-keyshortcuts={shortcuts ? "Space Enter" : undefined}
            >
              {t("review.show")}
            </Link>
          </>
        )}
      </div>
      {shortcutsSetting}
    </section>
  );
}
