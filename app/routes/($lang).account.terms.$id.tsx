import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/($lang).account.terms.$id";
import { getDatabase } from "../db/db.server";
import { invalidParam, pageNotFound } from "../http/errors";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { requireLearner } from "../learning/learner.server";
import { studyLanguageName } from "../learning/study-language";
import { ExampleFields, TermFields } from "../learning/term-fields";
import { parseExample, parseTermFields, type FieldErrors } from "../learning/term-form";
import { addExample, deleteTerm, examplesOf, findTerm, isDuplicate, removeExample, setStage, stageOf, updateTerm } from "../learning/terms.server";
import { StageBadge } from "../learning/ui";
import { isTermId } from "../learning/term-id";
import { isStage, STAGES } from "../learning/vocabulary";
import { redirectWithToast } from "../toasts/toast.server";
import { useLocalePath } from "../ui/locale";
import type { PageHandle } from "../ui/seo";
import { readForm } from "../http/request-body.server";

export const handle: PageHandle = { title: "titles.term" };

/** The learner's own term, or a 404 exactly like a missing one (another learner's id included). */
async function ownTerm(request: Request, params: Route.LoaderArgs["params"], userId: string) {
  if (!isTermId(params.id)) invalidParam(request);
  const term = await findTerm(await getDatabase(), userId, params.id);
  if (!term) pageNotFound(request);
  return term;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = requireLearner(context);
  const term = await ownTerm(request, params, user.id);
  const now = new Date();
  return {
    term: { id: term.id, text: term.text, meaning: term.meaning, partOfSpeech: term.partOfSpeech, notes: term.notes, language: term.language, reps: term.reps, due: term.due.toISOString() },
    stage: stageOf(term, now),
    languageName: studyLanguageName(term.language, requestLocale(context)),
    // Formatted on the server (in UTC) so the page hydrates with the text it was rendered with.
    dueText: `${new Intl.DateTimeFormat(requestLocale(context), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(term.due)} UTC`,
    examples: (await examplesOf(await getDatabase(), term.id)).map((e) => ({ id: e.id, sentence: e.sentence, translation: e.translation })),
    confirmDelete: new URL(request.url).searchParams.has("delete"),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { user } = requireLearner(context);
  const term = await ownTerm(request, params, user.id);
  const db = await getDatabase();
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const here = localePath(locale, `/account/terms/${term.id}`);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const toast = (key: string, values: Record<string, string> = {}) => ({
    type: "success" as const,
    title: t(`learning:toasts.${key}.title`),
    description: t(`learning:toasts.${key}.description`, { text: term.text, ...values }),
  });
  const invalid = (errors: FieldErrors, intentName: string, status = 400) => data({ intent: intentName, errors, message: null as string | null }, { status });

  switch (intent) {
    case "update": {
      const parsed = parseTermFields(form);
      if (parsed.errors) return invalid(parsed.errors, intent);
      try {
        await updateTerm(db, user.id, term.id, parsed.value);
      } catch (error) {
        if (!isDuplicate(error)) throw error;
        const message = t("learning:errors.duplicate", { text: parsed.value.text, language: studyLanguageName(term.language, locale) });
        return data({ intent, errors: {} as FieldErrors, message }, { status: 409 });
      }
      return redirectWithToast(request, here, toast("updated", { text: parsed.value.text }));
    }
    case "stage": {
      const stage = form.get("stage");
      if (!isStage(stage)) return data({ intent, errors: {} as FieldErrors, message: t("learning:errors.invalidStage") }, { status: 400 });
      await setStage(db, user.id, term.id, stage);
      return redirectWithToast(request, here, toast("stageChanged", { stage: t(`learning:stages.${stage}`) }));
    }
    case "addExample": {
      const example = parseExample(form, true);
      if (example.errors || !example.value) return invalid(example.errors ?? {}, intent);
      await addExample(db, user.id, term.id, example.value);
      return redirectWithToast(request, here, toast("exampleAdded"));
    }
    case "removeExample": {
      const exampleId = String(form.get("exampleId") ?? "");
      if (!isTermId(exampleId) || !(await removeExample(db, user.id, term.id, exampleId))) pageNotFound(request);
      return redirectWithToast(request, here, toast("exampleRemoved"));
    }
    case "delete": {
      await deleteTerm(db, user.id, term.id);
      return redirectWithToast(request, localePath(locale, "/account/explore/member"), toast("deleted"));
    }
    default:
      return data({ intent, errors: {} as FieldErrors, message: t("learning:errors.invalidAction") }, { status: 400 });
  }
}

export default function TermPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const { term, stage, examples, confirmDelete } = loaderData;
  const errorsFor = (intent: string) => (actionData?.intent === intent ? actionData.errors : undefined);
  const here = to(`/account/terms/${term.id}`);
  return (
    <article>
      <p className="eyebrow">{t(`partsOfSpeech.${term.partOfSpeech}`)} · {loaderData.languageName}</p>
      <h1 lang={term.language}>{term.text}</h1>
      <p className="lead">{term.meaning}</p>
      {term.notes ? <p>{term.notes}</p> : null}
      <p>
        <StageBadge stage={stage} /> · {t("term.reviewed", { count: term.reps })} ·{" "}
        <time dateTime={term.due}>{t("term.nextReview", { date: loaderData.dueText })}</time>
      </p>
      {actionData?.message ? <p className="error-text" role="alert">{actionData.message}</p> : null}

      <h2>{t("term.examplesTitle")} <span className="hint">({t("examples", { count: examples.length })})</span></h2>
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
                <button type="submit" className="button button-small button-secondary" aria-label={`${t("term.removeExample")}: ${example.sentence}`}>
                  {t("term.removeExample")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}

      <div className="term-actions">
        <section>
          <h2>{t("term.addExample")}</h2>
          <Form method="post" className="stack" aria-busy={pending}>
            <input type="hidden" name="intent" value="addExample" />
            <ExampleFields errors={errorsFor("addExample")} language={term.language} idPrefix="new-" />
            <button type="submit" className="button" disabled={pending}>{t("term.addExample")}</button>
          </Form>
        </section>
        <section>
          <h2>{t("term.changeStage")}</h2>
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="stage" />
            <label htmlFor="stage">{t("term.stage")}</label>
            <select id="stage" name="stage" defaultValue={stage} key={stage}>
              {STAGES.map((s) => (
                <option key={s} value={s}>{t(`stages.${s}`)}</option>
              ))}
            </select>
            <button type="submit" className="button" disabled={pending}>{t("term.changeStage")}</button>
          </Form>
        </section>
      </div>

      <section>
        <h2>{t("term.editTitle")}</h2>
        <Form method="post" className="stack" aria-busy={pending}>
          <input type="hidden" name="intent" value="update" />
          <TermFields values={term} errors={errorsFor("update")} language={term.language} />
          <button type="submit" className="button" disabled={pending}>{t("term.save")}</button>
        </Form>
      </section>

      <section>
        <h2>{t("term.deleteTitle")}</h2>
        {confirmDelete ? (
          <Form method="post" className="stack">
            <p role="alert">{t("term.deleteConfirm", { text: term.text })}</p>
            <input type="hidden" name="intent" value="delete" />
            <p>
              <button type="submit" className="button button-danger">{t("term.deleteYes")}</button>{" "}
              <Link to={here}>{t("term.cancel")}</Link>
            </p>
          </Form>
        ) : (
          <Link className="button button-secondary" to={`${here}?delete=1`}>{t("term.delete")}</Link>
        )}
      </section>
      <p><Link to={to("/account/explore/member")}>{t("term.back")}</Link></p>
    </article>
  );
}
