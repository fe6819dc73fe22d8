import { type RouterContextProvider } from "react-router";
import { userContext } from "../auth/session.server";
import { getDatabase } from "../db/db.server";
import { pageNotFound } from "../http/errors";
import { PATHS, textPath } from "../http/paths";
import { readForm } from "../http/request-body.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { studyLanguageName } from "../learning/study-language";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import { readerView, segmented } from "./reader.server";
import { findSample, sampleTexts } from "./samples.server";
import { createText } from "./texts.server";
import { roomForTexts } from "../learning/limits.server";

type Context = Readonly<RouterContextProvider>;

/** The shipped sample texts by language: the same page for every visitor. */
export function samplesPageData(context: Context) {
  const locale = requestLocale(context);
  return {
    samples: sampleTexts().map(({ slug, language, level, title }) => ({
      slug,
      language,
      level,
      title,
      languageName: studyLanguageName(language, locale),
      words: segmented(`sample:${slug}`, language, findSample(slug)!.body).words.length,
    })),
  };
}

/** A sample text in the reader, every word new (the demo knows no learner). */
export function samplePageData(request: Request, context: Context, slug: string | undefined) {
  const sample = findSample(slug);
  if (!sample) pageNotFound(request);
  const text = segmented(`sample:${sample.slug}`, sample.language, sample.body);
  const { view } = readerView(
    { title: sample.title, language: sample.language, text, vocabulary: [] },
    new URLSearchParams(),
  );
  return {
    slug: sample.slug,
    level: sample.level,
    languageName: studyLanguageName(sample.language, requestLocale(context)),
    view,
  };
}

/** Copies a sample into the signed-in learner's texts (signed out: to the sign-in form first). */
export async function samplePageAction(request: Request, context: Context, slug: string | undefined) {
  const sample = findSample(slug);
  if (!sample) pageNotFound(request);
  await readForm(request);
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const user = context.get(userContext);
  if (!user)
    return redirectWithToast(
      request,
      localePath(locale, PATHS.signIn),
      translatedToast(t, "info", "reading:toasts.signInToRead"),
    );
  const db = await getDatabase();
  if (!(await roomForTexts(db, user.id)))
    return redirectWithToast(
      request,
      localePath(locale, PATHS.texts),
      translatedToast(t, "error", { title: "common:toast.limit.title", description: "reading:errors.textLimit" }),
    );
  const text = await createText(
    db,
    { userId: user.id, language: sample.language },
    { title: sample.title, body: sample.body },
  );
  return redirectWithToast(
    request,
    localePath(locale, textPath(text.id)),
    translatedToast(t, "success", "reading:toasts.created", { title: text.title }),
  );
}
