import { useTranslation } from "../i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/($lang).account.terms.$id";
import { ExampleFields, TermFields } from "../learning/term-fields";
import { termPageAction, termPageData } from "../learning/term-page.server";
import { StageBadge } from "../learning/ui";
import { TermFamily } from "../learning/term-family";
import { TermSound } from "../learning/term-sound";
import { STAGES } from "../learning/vocabulary";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { PATHS, termPath } from "../http/paths";
import type { StalenessHandle } from "../edge/staleness";

/** Kept in memory for the learner until their next write or the term falling due (its stage changes). */
export const handle: PageHandle & StalenessHandle<Awaited<ReturnType<typeof loader>>> = {
  title: "titles.term",
  staleness: { dependsOn: ["learner"], changesAt: (data) => [data.changesAt], keptForLearner: true },
};

export function loader({ request, params, context }: Route.LoaderArgs) {
  return termPageData(request, context, params.id);
}

export function action({ request, params, context }: Route.ActionArgs) {
  return termPageAction(request, context, params.id);
}

export default function TermPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const { term, stage, examples, confirmDelete } = loaderData;
  const errorsFor = (intent: string) => (actionData?.intent === intent ? actionData.errors : undefined);
  const here = to(termPath(term.id));
  return (
    <article>
      <p className="eyebrow">
        {term.partOfSpeech ? <>{t(`lists:partsOfSpeech.${term.partOfSpeech}`)} · </> : null}
        {loaderData.languageName}
      </p>
      <h1 lang={term.language}>{term.text}</h1>
      {term.reading ? (
        <p className="term-reading" lang={term.language}>
          {term.reading}
        </p>
      ) : null}
      <p className="lead">{term.meaning}</p>
      <TermSound src={term.sound} />
      {term.notes ? <p>{term.notes}</p> : null}
      <p>
        <StageBadge stage={stage} /> · {t("term.reviewed", { count: term.reps })} ·{" "}
        <time dateTime={term.due}>{t("term.nextReview", { date: loaderData.dueText })}</time>
      </p>
      {actionData?.message ? (
        <p className="error-text" role="alert">
          {actionData.message}
        </p>
      ) : null}

      <h2>
        {t("term.examplesTitle")} <span className="hint">({t("examples", { count: examples.length })})</span>
      </h2>
      {examples.length === 0 ? (
        <p className="hint">{t("term.noExamples")}</p>
      ) : (
        <ul className="examples">
          {examples.map((example) => (
            <li key={example.id}>
              <span lang={term.language}>{example.sentence}</span>
              {example.translation ? <span className="hint"> — {example.translation}</span> : null}{" "}
              <Form method="post" style={{ display: "inline" }}>
                <input type="hidden" name="intent" value="removeExample" />
                <input type="hidden" name="exampleId" value={example.id} />
                <button
                  type="submit"
                  className="button button-small button-secondary"
                  aria-label={`${t("term.removeExample")}: ${example.sentence}`}
                >
                  {t("term.removeExample")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}

      <TermFamily
        language={term.language}
        family={loaderData.family}
        error={(errorsFor("linkParent") as Record<string, string> | undefined)?.parent}
        pending={pending}
      />

      <div className="term-actions">
        <section id="add-example">
          <h2>{t("term.addExample")}</h2>
          <Form method="post" className="stack" aria-busy={pending}>
            <input type="hidden" name="intent" value="addExample" />
            <ExampleFields errors={errorsFor("addExample")} language={term.language} idPrefix="new-" />
            <button type="submit" className="button" disabled={pending}>
              {t("term.addExample")}
            </button>
          </Form>
        </section>
        <section>
          <h2>{t("term.changeStage")}</h2>
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="stage" />
            <label htmlFor="stage">{t("term.stage")}</label>
            <select id="stage" name="stage" defaultValue={stage} key={stage}>
              {STAGES.map((s) => (
                <option key={s} value={s}>
                  {t(`stages.${s}`)}
                </option>
              ))}
            </select>
            <button type="submit" className="button" disabled={pending}>
              {t("term.changeStage")}
            </button>
          </Form>
        </section>
      </div>

      <section>
        <h2>{t("term.editTitle")}</h2>
        <Form method="post" className="stack" aria-busy={pending}>
          <input type="hidden" name="intent" value="update" />
          <TermFields values={term} errors={errorsFor("update")} language={term.language} />
          <button type="submit" className="button" disabled={pending}>
            {t("term.save")}
          </button>
        </Form>
      </section>

      <section>
        <h2>{t("term.deleteTitle")}</h2>
        {confirmDelete ? (
          <Form method="post" className="stack">
            <p role="alert">{t("term.deleteConfirm", { text: term.text })}</p>
            <input type="hidden" name="intent" value="delete" />
            <p>
              <button type="submit" className="button button-danger">
                {t("term.deleteYes")}
              </button>{" "}
              <Link to={here}>{t("term.cancel")}</Link>
            </p>
          </Form>
        ) : (
          <Link className="button button-secondary" to={`${here}?delete=1`}>
            {t("term.delete")}
          </Link>
        )}
      </section>
      <p>
        <Link to={to(PATHS.memberTerms)}>{t("term.back")}</Link>
      </p>
    </article>
  );
}
