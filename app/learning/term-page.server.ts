import { z } from "zod";
import { dispatchIntents, intent, text } from "../http/intents.server";
import { data, type RouterContextProvider } from "react-router";
import { getDatabase } from "../db/db.server";
import { deletedNotFound, invalidParam, pageNotFound } from "../http/errors";
import { rememberDeletedTerm, wasDeleted } from "./deleted-terms.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import { isId } from "./ids";
import { requireLearner } from "./learner.server";
import { studyLanguageName } from "./study-language";
import { learnerTimeZone, momentFormatter } from "./time-zone.server";
import { exampleSchema, termFieldsSchema, type FieldErrors } from "./term-form";
import {
  addExample,
  deleteTerm,
  examplesOf,
  findTerm,
  isDuplicate,
  removeExample,
  setStage,
  stageOf,
  updateTerm,
} from "./terms.server";
import { isStage, type Stage } from "./vocabulary";
import { PATHS, termPath } from "../http/paths";
import { soundHashesOf } from "./sounds.server";
import { soundPath } from "./sounds";
import { familyOf, familyRefusal, linkToParent, termPageProposals, unlinkParent } from "./families.server";

type Context = Readonly<RouterContextProvider>;

/** The learner's own term, or a 404 exactly like a missing one (another learner's id included). */
async function ownTerm(request: Request, id: string | undefined, userId: string) {
  // A term id is a UUID; anything else fails the route's validation rule.
  if (!isId(id)) invalidParam(request);
  const term = await findTerm(await getDatabase(), userId, id);
  if (!term) {
    if (await wasDeleted(request, id)) deletedNotFound(request);
    pageNotFound(request);
  }
  return term;
}

/** What the term page shows: the term, its stage and examples, dates formatted for the interface locale. */
export async function termPageData(request: Request, context: Context, id: string | undefined) {
  const { user } = requireLearner(context);
  const term = await ownTerm(request, id, user.id);
  const now = new Date();
  const db = await getDatabase();
  const [timeZone, examples, family, sounds] = await Promise.all([
    learnerTimeZone(db, user.id),
    examplesOf(db, term.id),
    familyOf(db, user.id, term),
    soundHashesOf(db, [term.id]),
  ]);
  const sound = sounds.get(term.id);
  // Parents to propose: the learner's terms of the same stem (a term with forms is a parent, not a form).
  const owner = { userId: user.id, language: term.language };
  const proposals = family.parent || family.forms.length > 0 ? [] : await termPageProposals(db, owner, term.text);
  return {
    term: {
      id: term.id,
      text: term.text,
      reading: term.reading,
      meaning: term.meaning,
      partOfSpeech: term.partOfSpeech,
      notes: term.notes,
      language: term.language,
      reps: term.reps,
      due: term.due.toISOString(),
      sound: sound ? soundPath(sound) : null,
    },
    stage: stageOf(term, now),
    languageName: studyLanguageName(term.language, requestLocale(context)),
    // In the learner's time zone, formatted on the server so the page hydrates with the text it was rendered with.
    dueText: momentFormatter(requestLocale(context), timeZone)(term.due),
    examples: examples.map((e) => ({
      id: e.id,
      sentence: e.sentence,
      translation: e.translation,
    })),
    confirmDelete: new URL(request.url).searchParams.has("delete"),
    /** When the page changes without a write (`handle.staleness`): a reviewed term's stage, when it falls due. */
    changesAt: term.state === 2 && term.due > now ? term.due.getTime() : null,
    family: {
      parent: family.parent,
      forms: family.forms,
      proposals: proposals.map((p) => ({ text: p.text, meaning: p.meaning })),
    },
  };
}

/**
 * The term page's forms, told apart by `intent`: update the fields, change the stage, add or remove an example,
 * delete the term; any other intent is a 400. Success redirects with a toast; field errors answer 400 (409 for a
 * duplicate text) and are shown next to the fields.
 */
export async function termPageAction(request: Request, context: Context, id: string | undefined) {
  const { user } = requireLearner(context);
  const term = await ownTerm(request, id, user.id);
  const db = await getDatabase();
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const here = localePath(locale, termPath(term.id));
  const toast = (key: string, values: Record<string, string> = {}) =>
    translatedToast(t, "success", `learning:toasts.${key}`, { text: term.text, ...values });
  const failed = (name: string, status: number, errors: FieldErrors, message: string | null = null) =>
    data({ intent: name, errors, message }, { status });

  return dispatchIntents(
    request,
    {
      update: intent({
        schema: z.object(termFieldsSchema),
        run: async (fields) => {
          try {
            await updateTerm(db, user.id, term.id, fields);
          } catch (error) {
            if (!isDuplicate(error)) throw error;
            const message = t("learning:errors.duplicate", {
              text: fields.text,
              language: studyLanguageName(term.language, locale),
            });
            return failed("update", 409, {}, message);
          }
          return redirectWithToast(request, here, toast("updated", { text: fields.text }));
        },
      }),
      stage: intent({
        schema: z.object({ stage: z.custom<Stage>(isStage) }),
        run: async ({ stage }) => {
          await setStage(db, user.id, term.id, stage);
          return redirectWithToast(request, here, toast("stageChanged", { stage: t(`learning:stages.${stage}`) }));
        },
        invalid: () => failed("stage", 400, {}, t("learning:errors.invalidStage")),
      }),
      // Word families (ADR 061): this term becomes a form of the parent named (made a term if it is not one).
      linkParent: intent({
        schema: z.object({ parent: text().pipe(z.string().trim().min(1).max(200)) }),
        run: async ({ parent }) => {
          const owner = { userId: user.id, language: term.language };
          const linked = await linkToParent(db, owner, { id: term.id }, parent);
          if (!linked.ok) return failed("linkParent", 409, {}, familyRefusal(t, linked.reason, term.text));
          return redirectWithToast(request, here, toast("linked", { parent: linked.parent.text }));
        },
        invalid: () => failed("linkParent", 400, { parent: "errors.parentMissing" } as FieldErrors),
      }),
      unlinkParent: intent({
        schema: z.object({}),
        run: async () => {
          await unlinkParent(db, user.id, term.id);
          return redirectWithToast(request, here, toast("unlinked"));
        },
      }),
      addExample: intent({
        schema: exampleSchema(true),
        run: async (example) => {
          if (!example) return failed("addExample", 400, {});
          await addExample(db, user.id, term.id, example);
          return redirectWithToast(request, here, toast("exampleAdded"));
        },
      }),
      removeExample: intent({
        schema: z.object({ exampleId: text() }),
        run: async ({ exampleId }) => {
          if (!isId(exampleId) || !(await removeExample(db, user.id, term.id, exampleId))) pageNotFound(request);
          return redirectWithToast(request, here, toast("exampleRemoved"));
        },
      }),
      delete: intent({
        schema: z.object({}),
        run: async () => {
          await deleteTerm(db, user.id, term.id);
          return redirectWithToast(request, localePath(locale, PATHS.memberTerms), toast("deleted"), {
            headers: { "Set-Cookie": await rememberDeletedTerm(request, term.id) },
          });
        },
      }),
    },
    {
      unknown: (name) => failed(name, 400, {}, t("learning:errors.invalidAction")),
      invalid: (errors, name) => failed(name, 400, errors),
    },
  );
}
