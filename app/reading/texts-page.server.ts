import { data, type RouterContextProvider } from "react-router";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { readForm } from "../http/request-body.server";
import { textPath } from "../http/paths";
import { requireLearner } from "../learning/learner.server";
import { studyLanguageName } from "../learning/study-language";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import { distinctWords, segmented, textStats } from "./reader.server";
import { parseTextForm } from "./text-form";
import { createText, textsOf, vocabularyOf } from "./texts.server";

type Context = Readonly<RouterContextProvider>;

/** The learner's texts in their study language, the most comfortable to read (largest share of known words) first. */
export async function textsPageData(context: Context) {
  const { owner } = requireLearner(context);
  const db = await getDatabase();
  const list = await textsOf(db, owner);
  const words = list.map((text) => segmented(`${text.id}:${text.updatedAt.getTime()}`, text.language, text.body));
  // One query for every text: the terms any of their words can match.
  const vocabulary = await vocabularyOf(db, owner, [...new Set(words.flatMap(distinctWords))]);
  const rows = list.map((text, index) => ({
    id: text.id,
    title: text.title,
    stats: textStats(words[index]!, text.language, vocabulary),
  }));
  rows.sort((a, b) => b.stats.knownShare - a.stats.knownShare || a.title.localeCompare(b.title));
  return { texts: rows, languageName: studyLanguageName(owner.language, requestLocale(context)) };
}

export function newTextPageData(context: Context) {
  const { owner } = requireLearner(context);
  return { language: owner.language, languageName: studyLanguageName(owner.language, requestLocale(context)) };
}

/** Adds a pasted or uploaded text; errors answer 400, 413 (too long) or 415 (not a .txt file) next to the fields. */
export async function newTextAction(request: Request, context: Context) {
  const { owner } = requireLearner(context);
  const { t } = getInstance(context);
  const form = await readForm(request);
  const parsed = await parseTextForm(form);
  const values = { title: String(form.get("title") ?? ""), body: String(form.get("body") ?? "") };
  if (parsed.errors) return data({ errors: parsed.errors, values }, { status: parsed.status });
  const text = await createText(await getDatabase(), owner, parsed.value);
  return redirectWithToast(
    request,
    localePath(requestLocale(context), textPath(text.id)),
    translatedToast(t, "success", "reading:toasts.created", { title: text.title }),
  );
}
