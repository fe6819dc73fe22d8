import { and, desc, eq } from "drizzle-orm";
import { redirect, type RouterContextProvider } from "react-router";
import { userContext } from "../auth/session.server";
import { getDatabase } from "../db/db.server";
import { pageNotFound } from "../http/errors";
import { PATHS, textPath } from "../http/paths";
import { readForm } from "../http/request-body.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { studyLanguageName } from "../learning/study-language";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import type { Database } from "../db/db.server";
import { analyserReady } from "./analysers.server";
import { matchIndexed } from "./match";
import { texts } from "./reading.schema";
import { readerView, segmented } from "./reader.server";
import { learnedNow, stagesOf, versionsOf, vocabularyIndex } from "./vocabulary-index.server";
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

/** The learner's copy of a sample (the newest text of the sample's language and title), if they added it. */
export async function copyOf(db: Database, userId: string, sample: { language: string; title: string }) {
  const [row] = await db
    .select({ id: texts.id })
    .from(texts)
    .where(and(eq(texts.userId, userId), eq(texts.language, sample.language), eq(texts.title, sample.title)))
    .orderBy(desc(texts.createdAt))
    .limit(1);
  return row?.id ?? null;
}

/**
 * A sample text in the reader. Signed out, every word is new (the demo knows no learner). Signed in, the words show the
 * learner's own stages, with the text's statistics, and the page offers to add the text to their texts or, once it is
 * there, to open their copy, where words open their panels.
 */
export async function samplePageData(request: Request, context: Context, slug: string | undefined) {
  const sample = findSample(slug);
  if (!sample) pageNotFound(request);
  await analyserReady(sample.language);
  const text = segmented(`sample:${sample.slug}`, sample.language, sample.body);
  const user = context.get(userContext);
  let learner: { copy: string | null } | null = null;
  let matches;
  if (user) {
    const db = await getDatabase();
    const owner = { userId: user.id, language: sample.language };
    const versions = await versionsOf(db, user.id);
    const [index, learned, copy] = await Promise.all([
      vocabularyIndex(db, owner, versions.vocabulary),
      learnedNow(db, owner, versions.data),
      copyOf(db, user.id, sample),
    ]);
    matches = matchIndexed(index, text, (term) => (learned.has(term) ? "learned" : "inprogress"));
    const ids = [...new Set(matches.flatMap((match) => (match.termId ? [match.termId] : [])))];
    const stages = await stagesOf(db, owner, ids);
    for (const match of matches) if (match.termId) match.stage = stages.get(match.termId) ?? match.stage;
    learner = { copy: copy && localePath(requestLocale(context), textPath(copy)) };
  }
  const { view } = readerView(
    { title: sample.title, language: sample.language, text, vocabulary: [], ...(matches ? { matches } : {}) },
    new URLSearchParams(),
  );
  return {
    slug: sample.slug,
    level: sample.level,
    languageName: studyLanguageName(sample.language, requestLocale(context)),
    view,
    learner,
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
  // Added before: the learner's copy opens, rather than a second one.
  const copy = await copyOf(db, user.id, sample);
  if (copy) return redirect(localePath(locale, textPath(copy)));
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
