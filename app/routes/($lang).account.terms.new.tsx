import { useTranslation } from "../i18n/use-translation";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/($lang).account.terms.new";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { requireLearner } from "../learning/learner.server";
import { studyLanguageName } from "../learning/study-language";
import { ExampleFields, TermFields } from "../learning/term-fields";
import { parseExample, parseTermFields, type FieldErrors } from "../learning/term-form";
import { createTerm, isDuplicate, termWithText } from "../learning/terms.server";
import { roomForTerms } from "../learning/limits.server";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import type { PageHandle } from "../ui/seo";
import { readForm } from "../http/request-body.server";
import { termPath } from "../http/paths";

export const handle: PageHandle = { title: "learning:term.newTitle" };

export function loader({ context }: Route.LoaderArgs) {
  const { language } = requireLearner(context).owner;
  return { language, languageName: studyLanguageName(language, requestLocale(context)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { owner } = requireLearner(context);
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const form = await readForm(request);
  const term = parseTermFields(form);
  const example = parseExample(form, false);
  const values = {
    text: String(form.get("text") ?? ""),
    reading: String(form.get("reading") ?? ""),
    meaning: String(form.get("meaning") ?? ""),
    partOfSpeech: String(form.get("partOfSpeech") ?? ""),
    notes: String(form.get("notes") ?? ""),
  };
  if (term.errors || example.errors) {
    return data(
      { errors: { ...term.errors, ...example.errors } as FieldErrors, duplicate: null, existing: null, values },
      { status: 400 },
    );
  }
  const db = await getDatabase();
  if (!(await roomForTerms(db, owner.userId)))
    return data(
      { errors: {} as FieldErrors, duplicate: t("learning:errors.termLimit"), existing: null, values },
      { status: 409 },
    );
  try {
    const created = await createTerm(db, owner, term.value, example.value ?? undefined);
    return redirectWithToast(
      request,
      localePath(locale, termPath(created.id)),
      translatedToast(t, "success", "learning:toasts.created", { text: created.text }),
    );
  } catch (error) {
    if (!isDuplicate(error)) throw error;
    const duplicate = t("learning:errors.duplicate", {
      text: term.value.text,
      language: studyLanguageName(owner.language, locale),
    });
    // The term it collides with, to open instead.
    const found = await termWithText(db, owner, term.value.text);
    const existing = found ? { href: localePath(locale, termPath(found.id)), text: found.text } : null;
    return data({ errors: {} as FieldErrors, duplicate, existing, values }, { status: 409 });
  }
}

export default function NewTermPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("learning");
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const errors = actionData?.errors;
  return (
    <section className="narrow">
      <h1>{t("term.newTitle")}</h1>
      <p className="hint">{t("term.language", { language: loaderData.languageName })}</p>
      {actionData ? (
        <p className="error-text" role="alert">
          {actionData.duplicate ?? t("errors.summary")}
          {actionData.existing ? (
            <>
              {" "}
              <Link to={actionData.existing.href}>{t("errors.openExisting", { text: actionData.existing.text })}</Link>
            </>
          ) : null}
        </p>
      ) : null}
      <Form method="post" className="stack" aria-busy={pending}>
        <TermFields values={actionData?.values} errors={errors} language={loaderData.language} />
        <fieldset className="stack">
          <legend>{t("term.firstExample")}</legend>
          <ExampleFields errors={errors} language={loaderData.language} />
        </fieldset>
        <button type="submit" className="button" disabled={pending}>
          {t("term.create")}
        </button>
      </Form>
    </section>
  );
}
