import { data, redirect, type RouterContextProvider } from "react-router";
import { getDatabase } from "../db/db.server";
import { invalidParam, pageNotFound } from "../http/errors";
import { PATHS, textPath } from "../http/paths";
import { z } from "zod";
import { dispatchIntents, flag, intent, text as textField } from "../http/intents.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { isId } from "../learning/ids";
import { requireLearner } from "../learning/learner.server";
import { studyLanguageName } from "../learning/study-language";
import { termWithExampleSchema, type FieldErrors } from "../learning/term-form";
import { findTerm, setStage, stageOf } from "../learning/terms.server";
import { rememberDeletedTerm } from "../learning/deleted-terms.server";
import { addPanelTerm, undoPanelTerm } from "./panel-terms.server";
import { markKnown, newWordsOfPage, readKnownOnPageTurn, undoKnownBatch } from "./known-words.server";
import { isStage, type Stage } from "../learning/vocabulary";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import { matchIndexed } from "./match";
import { pageNumber, readerView } from "./reader.server";
import { pagesOf } from "./segment";
import { segmentedOf } from "./text-summaries.server";
import {
  learnedNow,
  learnedUntil,
  stagesOf,
  versionsOf,
  vocabularyIndex,
  type StageChange,
} from "./vocabulary-index.server";
import { parseTextForm, type TextErrors } from "./text-form";
import { deleteText, findText, ignoreWord, unignoreWord, updateText } from "./texts.server";
import type { ReaderView } from "./view";
import { defaultDictionary, dictionaryUrl } from "./dictionary";
import { readDictionary } from "../learning/settings.server";
import { readReaderSettings, saveShowReadings } from "./readings-setting.server";
import { markTextOpened } from "../learning/welcome.server";
import { starterList } from "../learning/first-lesson.server";
import { meaningsFor } from "./instant-meanings.server";
import { soundHashesOf } from "../learning/sounds.server";
import { soundPath } from "../learning/sounds";
import { env } from "../config/env.server";
import { serverVoicesFor } from "../player/speech-provider.server";
import { familyRefusal, familyStages, linkToParent, unlinkParent, wordFamily } from "../learning/families.server";

type Context = Readonly<RouterContextProvider>;

async function ownText(request: Request, id: string | undefined, userId: string) {
  if (!isId(id)) invalidParam(request);
  const text = await findText(await getDatabase(), userId, id);
  if (!text) pageNotFound(request);
  return text;
}

/** A page of one of the learner's texts, every word with its stage, and the panel of the word in `?word=`. */
export async function readerPageData(request: Request, context: Context, id: string | undefined) {
  const { user } = requireLearner(context);
  const text = await ownText(request, id, user.id);
  const db = await getDatabase();
  // My home offers to continue the text opened last (a write only when another text was).
  await markTextOpened(db, user.id, text.id);
  const query = new URL(request.url).searchParams;
  const owner = { userId: user.id, language: text.language };
  // The text's stored segmentation, the index of the vocabulary's words (kept per vocabulary version) and the stages
  // of the moment: nothing here grows with the number of the learner's terms.
  const words = await segmentedOf(db, text);
  const versions = await versionsOf(db, user.id);
  const settings = await readReaderSettings(db, user.id);
  const showReadings = !!words.readings && settings.showReadings;
  const { knownOnPageTurn } = settings;
  const index = await vocabularyIndex(db, owner, versions.vocabulary);
  const learned = await learnedNow(db, owner, versions.data);
  // The text's statistics need to know only which terms are learned; the words on the page show their exact stage.
  const matches = matchIndexed(index, words, (term) => (learned.has(term) ? "learned" : "inprogress"));
  const pages = pagesOf(words);
  const shown = pages[pageNumber(query.get("page"), pages.length) - 1]!;
  const onPage = new Set<string>();
  for (let i = shown.firstWord; i <= shown.lastWord; i++) if (matches[i]?.termId) onPage.add(matches[i]!.termId!);
  // A form with no stage of its own yet shows its parent's (ADR 061).
  // The page changes by itself when a word's stage does (a reviewed term falls due) or the text's learned share does.
  const now = new Date();
  const change: StageChange = { at: learnedUntil(owner, versions.data) };
  const stages = await familyStages(db, owner, await stagesOf(db, owner, [...onPage], now, change), now, change);
  for (let i = shown.firstWord; i <= shown.lastWord; i++) {
    const match = matches[i]!;
    if (match.termId && match.start === i) match.stage = stages.get(match.termId) ?? match.stage;
  }
  const { view, selected, termId } = readerView(
    { title: text.title, language: text.language, text: words, vocabulary: [], matches, readings: showReadings },
    query,
  );
  const [term, sounds, template, looked, starter] = await Promise.all([
    termId ? findTerm(db, user.id, termId) : null,
    // The term's own sound (ADR 126), played in the panel.
    termId ? soundHashesOf(db, [termId]) : null,
    selected ? readDictionary(db, user.id, text.language) : null,
    // A new word's glosses from the dictionaries, offered to fill its meaning (a term has its own), and its lemmas.
    selected && !termId ? meaningsFor(db, text.language, requestLocale(context), selected.text) : null,
    // The starter list of the text's language at the learner's level, offered after the text (lists are in memory).
    starterList(db, text.language, user.level),
  ]);
  if (term && term.state === 2 && term.due.getTime() > now.getTime())
    change.at = Math.min(change.at, term.due.getTime());
  const family = selected && (await wordFamily(db, owner, index, { ...selected, term }, words, looked?.lemmas));
  const reader: ReaderView = {
    ...view,
    readings: { available: !!words.readings, shown: showReadings },
    selected: selected && {
      ...selected,
      family,
      term: term && {
        id: term.id,
        text: term.text,
        reading: term.reading,
        meaning: term.meaning,
        partOfSpeech: term.partOfSpeech,
        stage: stageOf(term, now),
        sound: sounds?.has(term.id) ? soundPath(sounds.get(term.id)!) : null,
      },
    },
  };
  const mode = query.has("edit") ? "edit" : query.has("delete") ? "delete" : "read";
  // Right after "mark the rest of this page as known": the moment of that batch, for its undo.
  const knownAt = Number(query.get("known"));
  return {
    id: text.id,
    reader,
    mode,
    body: mode === "edit" ? text.body : "",
    // The selected word in the learner's dictionary for the text's language (English Wiktionary by default).
    dictionary: selected ? dictionaryUrl(template ?? defaultDictionary(text.language), selected.text) : null,
    meanings: looked?.meanings ?? [],
    knownBatch: Number.isSafeInteger(knownAt) && knownAt > 0 ? knownAt : null,
    knownOnPageTurn,
    languageName: studyLanguageName(text.language, requestLocale(context)),
    /** The server's voice for the text's language, for Listen (ADR 140); empty: the browser's. */
    serverVoices: serverVoicesFor(env.speech, [text.language]),
    /** The speed Listen reads at: the player's. */
    listenRate: settings.listenRate,
    starterList: starter && { language: starter.language, level: starter.level },
    /** When the page changes without a write (`handle.staleness`); null: not before a write. */
    changesAt: Number.isFinite(change.at) ? change.at : null,
  };
}

const position = (value: string) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n < 1_000_000 ? n : null;
};

/** Where a form of the reader was sent from: the page, the open word, and whether the page stays in place (JavaScript). */
const placement = {
  page: textField().transform((value) => position(value) ?? 1),
  word: textField().transform(position),
  inPlace: flag(),
};

/**
 * The reader's forms, told apart by `intent`: add the selected word as a term, set a term's stage, ignore a word or
 * stop ignoring it (each returns to the word in the text, its panel open), edit or delete the text.
 */
export async function readerPageAction(request: Request, context: Context, id: string | undefined) {
  const { user } = requireLearner(context);
  const text = await ownText(request, id, user.id);
  const db = await getDatabase();
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const owner = { userId: user.id, language: text.language };
  const here = localePath(locale, textPath(text.id));
  // With JavaScript the page stays where it is (`inPlace`); without, the anchor brings the reader back to the word.
  const backTo = ({ page, word, inPlace }: { page: number; word: number | null; inPlace: boolean }) =>
    word === null ? `${here}?page=${page}` : `${here}?page=${page}&word=${word}${inPlace ? "" : `#w-${word}`}`;
  const failed = (name: string, status: number, errors: FieldErrors | TextErrors, message: string | null = null) =>
    data({ intent: name, errors: errors as Record<string, string>, message }, { status });
  const invalidAction = (name: string) => failed(name, 400, {}, t("learning:errors.invalidAction"));
  const word = textField()
    .transform((value) => value.trim())
    .pipe(z.string().min(1, "reading:errors.wordMissing").max(200, "reading:errors.wordMissing"));
  const ignoring = (which: "ignore" | "unignore") =>
    intent({
      schema: z.object({ ...placement, text: word }),
      run: async ({ text: value, ...place }) => {
        if (which === "ignore") await ignoreWord(db, owner, value);
        else await unignoreWord(db, owner, value);
        return redirectWithToast(
          request,
          backTo(place),
          translatedToast(t, "success", `reading:toasts.${which}d`, { text: value }),
        );
      },
      invalid: () => failed(which, 400, {}, t("reading:errors.wordMissing")),
    });

  return dispatchIntents(
    request,
    {
      // A pressed meaning (`choice`) or a typed one; the toast's undo removes the term again (undoAdd).
      addTerm: intent({
        schema: z.object({ ...placement, choice: textField() }).and(termWithExampleSchema),
        run: async ({ term, example, choice, ...place }) => {
          const added = await addPanelTerm(db, owner, { term, example, choice });
          if (!added.ok && added.reason === "limit") return failed("addTerm", 409, {}, t("learning:errors.termLimit"));
          if (!added.ok) {
            const language = studyLanguageName(text.language, locale);
            return failed("addTerm", 409, {}, t("learning:errors.duplicate", { text: term.text, language }));
          }
          const undo = {
            label: t("reading:panel.undo"),
            action: here,
            fields: {
              intent: "undoAdd",
              termId: added.id,
              page: String(place.page),
              ...(place.word === null ? {} : { word: String(place.word) }),
              ...(added.wasKnown ? { known: "1" } : {}),
            },
          };
          return redirectWithToast(request, backTo(place), {
            ...translatedToast(t, "success", "learning:toasts.created", { text: added.text }),
            undo,
          });
        },
      }),
      undoAdd: intent({
        schema: z.object({ ...placement, termId: textField(), known: flag() }),
        run: async ({ termId, known, ...place }) => {
          if (!isId(termId)) return invalidAction("undoAdd");
          const removed = await undoPanelTerm(db, owner, termId, known);
          if (!removed) return redirect(backTo(place));
          return redirectWithToast(
            request,
            backTo(place),
            translatedToast(t, "success", "reading:toasts.termRemoved", { text: removed.text }),
            { headers: { "Set-Cookie": await rememberDeletedTerm(request, termId) } },
          );
        },
        invalid: () => invalidAction("undoAdd"),
      }),
      stage: intent({
        schema: z.object({ ...placement, termId: textField(), stage: z.custom<Stage>(isStage) }),
        run: async ({ termId, stage, ...place }) => {
          if (!isId(termId) || !(await setStage(db, user.id, termId, stage))) pageNotFound(request);
          const term = await findTerm(db, user.id, termId);
          return redirectWithToast(
            request,
            backTo(place),
            translatedToast(t, "success", "learning:toasts.stageChanged", {
              text: term?.text ?? "",
              stage: t(`learning:stages.${stage}`),
            }),
          );
        },
        invalid: () => failed("stage", 400, {}, t("learning:errors.invalidStage")),
      }),
      markKnown: intent({
        schema: z.object(placement),
        run: async ({ page }) => {
          const fresh = await newWordsOfPage(db, owner, text, page);
          const now = new Date();
          const count = await markKnown(db, owner, fresh.words, now);
          return redirectWithToast(
            request,
            `${here}?page=${fresh.page}&known=${now.getTime()}`,
            translatedToast(t, "success", "reading:toasts.markedKnown", { count }),
          );
        },
      }),
      // The next page (or the end of the text, on the last page) with the learner's setting on: this page's remaining
      // new words become known first, with the same undo.
      turnPage: intent({
        schema: z.object(placement),
        run: async ({ page }) => {
          const fresh = await newWordsOfPage(db, owner, text, page);
          const to = Math.min(fresh.page + 1, fresh.pages);
          const now = new Date();
          const count = (await readKnownOnPageTurn(db, user.id)) ? await markKnown(db, owner, fresh.words, now) : 0;
          if (count === 0) return redirect(`${here}?page=${to}`);
          return redirectWithToast(
            request,
            `${here}?page=${to}&known=${now.getTime()}`,
            translatedToast(t, "success", "reading:toasts.markedKnown", { count }),
          );
        },
      }),
      undoKnown: intent({
        schema: z.object({
          ...placement,
          batch: textField()
            .transform(Number)
            .pipe(z.number().refine((at) => Number.isSafeInteger(at) && at > 0)),
        }),
        run: async ({ page, batch }) => {
          const count = await undoKnownBatch(db, owner, new Date(batch));
          return redirectWithToast(
            request,
            `${here}?page=${page}`,
            translatedToast(t, "success", "reading:toasts.unmarkedKnown", { count }),
          );
        },
        invalid: () => invalidAction("undoKnown"),
      }),
      // Word families (ADR 061): the open word becomes a form of a proposed parent (either made a term if it is not).
      linkParent: intent({
        schema: z.object({
          ...placement,
          text: word,
          parent: word,
          sentence: textField().transform((value) => value.trim().slice(0, 500)),
        }),
        run: async ({ text: value, parent, sentence, ...place }) => {
          const linked = await linkToParent(db, owner, { text: value, sentence }, parent);
          if (!linked.ok) return failed("linkParent", 409, {}, familyRefusal(t, linked.reason, value));
          return redirectWithToast(
            request,
            backTo(place),
            translatedToast(t, "success", "learning:toasts.linked", {
              text: linked.form.text,
              parent: linked.parent.text,
            }),
          );
        },
        invalid: () => failed("linkParent", 400, {}, t("reading:errors.wordMissing")),
      }),
      unlinkParent: intent({
        schema: z.object({ ...placement, termId: textField() }),
        run: async ({ termId, ...place }) => {
          if (!isId(termId) || !(await unlinkParent(db, user.id, termId))) pageNotFound(request);
          const term = await findTerm(db, user.id, termId);
          return redirectWithToast(
            request,
            backTo(place),
            translatedToast(t, "success", "learning:toasts.unlinked", { text: term?.text ?? "" }),
          );
        },
        invalid: () => invalidAction("unlinkParent"),
      }),
      // Show or hide the readings over the words (furigana, pinyin): the learner's setting, back to the same page.
      readings: intent({
        schema: z.object({ ...placement, show: z.enum(["on", "off"]) }),
        run: async ({ show, page }) => {
          await saveShowReadings(db, user.id, show === "on");
          return redirectWithToast(
            request,
            `${here}?page=${page}`,
            translatedToast(
              t,
              "success",
              show === "on" ? "reading:toasts.readingsShown" : "reading:toasts.readingsHidden",
            ),
          );
        },
        invalid: () => invalidAction("readings"),
      }),
      ignore: ignoring("ignore"),
      unignore: ignoring("unignore"),
      // The title and the text, pasted or uploaded: checked by parseTextForm, which reads the upload and answers 413/415.
      update: intent({
        schema: z.object({ title: z.unknown().optional(), body: z.unknown().optional(), file: z.unknown().optional() }),
        run: async (fields) => {
          const parsed = await parseTextForm(fields);
          if (parsed.errors) return failed("update", parsed.status, parsed.errors);
          await updateText(db, user.id, text.id, text.language, parsed.value);
          return redirectWithToast(
            request,
            here,
            translatedToast(t, "success", "reading:toasts.updated", parsed.value),
          );
        },
      }),
      delete: intent({
        schema: z.object({}),
        run: async () => {
          await deleteText(db, user.id, text.id);
          return redirectWithToast(
            request,
            localePath(locale, PATHS.texts),
            translatedToast(t, "success", "reading:toasts.deleted", { title: text.title }),
          );
        },
      }),
    },
    { unknown: invalidAction, invalid: (errors, name) => failed(name, 400, errors) },
  );
}
