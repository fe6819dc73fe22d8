import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigate, useNavigation, useSubmit } from "react-router";
import type { Route } from "./+types/($lang).account.review";
import { getDatabase } from "../db/db.server";
import { pageNotFound } from "../http/errors";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { isId } from "../learning/ids";
import { requireLearner } from "../learning/learner.server";
import { GRADES, type GradeName } from "../learning/stage";
import { dueCount, examplesOf, gradeTerm, nextDue, stageOf } from "../learning/terms.server";
import { StageBadge } from "../learning/ui";
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
  if (!term) return { term: null, remaining: 0, revealed: false };
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
      examples: revealed ? (await examplesOf(db, term.id)).map((e) => ({ id: e.id, sentence: e.sentence, translation: e.translation })) : [],
    },
    remaining: await dueCount(db, owner, now),
    revealed,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = requireLearner(context);
  const { t } = getInstance(context);
  const form = await readForm(request);
  const grade = String(form.get("grade") ?? "");
  const termId = String(form.get("termId") ?? "");
  if (!GRADE_NAMES.includes(grade as GradeName)) return data({ message: t("learning:errors.invalidGrade") }, { status: 400 });
  if (!isId(termId)) pageNotFound(request);
  const graded = await gradeTerm(await getDatabase(), user.id, termId, grade as GradeName);
  if (!graded) pageNotFound(request);
  // Back to the next due term, answer hidden.
  return redirect(localePath(requestLocale(context), "/account/review"), 303);
}

export default function ReviewPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const submit = useSubmit();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const { term, remaining, revealed } = loaderData;
  const gradeForm = useRef<HTMLFormElement>(null);

  // Keyboard: space or enter reveals, 1-4 grade.
  useEffect(() => {
    if (!term) return;
    function onKey(event: KeyboardEvent) {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLSelectElement) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (!revealed && (event.key === " " || event.key === "Enter")) {
        event.preventDefault();
        navigate("?reveal=1", { replace: true });
        return;
      }
      const index = ["1", "2", "3", "4"].indexOf(event.key);
      if (revealed && index >= 0 && gradeForm.current) {
        event.preventDefault();
        const formData = new FormData(gradeForm.current);
        formData.set("grade", GRADE_NAMES[index]!);
        void submit(formData, { method: "post" });
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [term, revealed, navigate, submit]);

  if (!term) {
    return (
      <section>
        <h1>{t("review.title")}</h1>
        <p className="lead">{t("review.done")}</p>
        <p><Link to={to(PATHS.learnerHome)}>{t("review.backHome")}</Link></p>
      </section>
    );
  }
  return (
    <section>
      <h1>{t("review.title")}</h1>
      <p className="hint">{t("review.remaining", { count: remaining })} · {t("review.keys")}</p>
      {actionData?.message ? <p className="error-text" role="alert">{actionData.message}</p> : null}
      <div className="review-card" aria-live="polite">
        <p className="eyebrow">{t(`partsOfSpeech.${term.partOfSpeech}`)} · <StageBadge stage={term.stage} /></p>
        <p className="review-term" lang={term.language}>{term.text}</p>
        {revealed ? (
          <>
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
            <Form method="post" ref={gradeForm} aria-busy={pending}>
              <input type="hidden" name="termId" value={term.id} />
              <fieldset className="grades">
                <legend>{t("review.gradeLegend")}</legend>
                {GRADE_NAMES.map((grade, index) => (
                  <button key={grade} type="submit" name="grade" value={grade} className={grade === "again" ? "button button-danger" : "button"} disabled={pending} aria-keyshortcuts={String(index + 1)}>
                    {index + 1} · {t(`review.grades.${grade}`)}
                  </button>
                ))}
              </fieldset>
            </Form>
          </>
        ) : (
          <>
            <p>{t("review.question")}</p>
            <Link className="button" to="?reveal=1" replace aria-keyshortcuts="Space">{t("review.show")}</Link>
          </>
        )}
      </div>
    </section>
  );
}
