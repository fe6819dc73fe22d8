import { formFields } from "../http/intents.server";
import { data, type RouterContextProvider } from "react-router";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { readForm } from "../http/request-body.server";
import { textPath } from "../http/paths";
import { requireLearner } from "../learning/learner.server";
import { studyLanguageName } from "../learning/study-language";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import { statsFrom, textSummaries } from "./text-summaries.server";
import { parseTextForm, type TextErrors } from "./text-form";
import { roomForTexts } from "../learning/limits.server";
import { createText, textListOf } from "./texts.server";
import { learnedNow, learnedUntil, pauser, versionsOf } from "./vocabulary-index.server";

type Context = Readonly<RouterContextProvider>;

export const TEXTS_PER_PAGE = 20;
/** How long the list waits for texts being counted before it shows them as still being counted. */
const COUNT_WAIT_MS = 250;

/** A page number from the query: 1 when missing or not a number, the last page when past it. */
function listPage(value: string | null, pages: number): number {
  const page = Number(value ?? 1);
  return Number.isInteger(page) && page >= 1 ? Math.min(page, pages) : 1;
}

/**
 * A page of the learner's texts in their study language, the most comfortable to read (largest share of known words)
 * first, from each text's stored counts and the stages of the moment: nothing is segmented or matched here, but for
 * texts not counted yet for this vocabulary, which are counted in the background and listed last until they are.
 */
export async function textsPageData(request: Request, context: Context) {
  const { owner } = requireLearner(context);
  const db = await getDatabase();
  const versions = await versionsOf(db, owner.userId);
  const list = await textListOf(db, owner);
  const counted = await textSummaries(db, owner, versions.vocabulary, list, COUNT_WAIT_MS);
  const learned = await learnedNow(db, owner, versions.data);
  // A text's statistics are kept until the learned terms change; working them all out again (a few hundred thousand
  // look-ups for hundreds of long texts) lets other requests run every few milliseconds.
  const pause = pauser();
  const rows = [];
  for (const text of list) {
    const summary = counted.get(text.id);
    const fresh = summary?.updatedAt === text.updatedAt.getTime();
    rows.push({ id: text.id, title: text.title, stats: fresh ? statsFrom(summary, learned) : null });
    await pause();
  }
  rows.sort(
    (a, b) =>
      (b.stats?.knownShare ?? -1) - (a.stats?.knownShare ?? -1) ||
      a.title.localeCompare(b.title) ||
      (a.id < b.id ? -1 : 1),
  );
  const pages = Math.max(1, Math.ceil(rows.length / TEXTS_PER_PAGE));
  const page = listPage(new URL(request.url).searchParams.get("page"), pages);
  return {
    texts: rows.slice((page - 1) * TEXTS_PER_PAGE, page * TEXTS_PER_PAGE),
    total: rows.length,
    counting: rows.filter((row) => row.stats === null).length,
    page,
    pages,
    languageName: studyLanguageName(owner.language, requestLocale(context)),
    /**
     * When the list changes without a write (`handle.staleness`): once a learned term falls due, or at once while
     * texts are being counted (their counts land without a write).
     */
    changesAt: rows.some((row) => row.stats === null) ? 0 : finiteOrNull(learnedUntil(owner, versions.data)),
  };
}

const finiteOrNull = (at: number) => (Number.isFinite(at) ? at : null);

export function newTextPageData(context: Context) {
  const { owner } = requireLearner(context);
  return { language: owner.language, languageName: studyLanguageName(owner.language, requestLocale(context)) };
}

/** Adds a pasted or uploaded text; errors answer 400, 413 (too long) or 415 (not a .txt file) next to the fields. */
export async function newTextAction(request: Request, context: Context) {
  const { owner } = requireLearner(context);
  const { t } = getInstance(context);
  const form = await readForm(request);
  const parsed = await parseTextForm(formFields(form));
  const values = { title: String(form.get("title") ?? ""), body: String(form.get("body") ?? "") };
  if (parsed.errors) return data({ errors: parsed.errors, values }, { status: parsed.status });
  const db = await getDatabase();
  if (!(await roomForTexts(db, owner.userId)))
    return data({ errors: { body: "errors.textLimit" } as TextErrors, values }, { status: 409 });
  const text = await createText(db, owner, parsed.value);
  return redirectWithToast(
    request,
    localePath(requestLocale(context), textPath(text.id)),
    translatedToast(t, "success", "reading:toasts.created", { title: text.title }),
  );
}
