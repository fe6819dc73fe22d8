import type { RouterContextProvider } from "react-router";
import { userContext } from "../auth/session.server";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import { chooseStudyLanguage, studyLanguageContext } from "./preferences.server";
import { addPublicTerms, publicListTerms, publicLists } from "./public-lists.server";
import { isId } from "./ids";
import { studyLanguageName } from "./study-language";
import { existingTexts } from "./terms.server";
import { roomForTerms } from "./limits.server";
import { inLocale, translationIn } from "./public-list-file";
import { isLevel, isStudyLanguage, LEVELS, type Level } from "./vocabulary";
import { PATHS } from "../http/paths";
import { readForm } from "../http/request-body.server";

/** The list shown: `?language=&level=` (a shareable GET form), else the study language and the learner's level. */
export async function publicPageData(request: Request, context: Readonly<RouterContextProvider>) {
  const params = new URL(request.url).searchParams;
  const user = context.get(userContext);
  const language = isStudyLanguage(params.get("language"))
    ? params.get("language")!
    : context.get(studyLanguageContext);
  const level: Level = isLevel(params.get("level"))
    ? (params.get("level") as Level)
    : isLevel(user?.level)
      ? (user.level as Level)
      : "beginner";
  const locale = requestLocale(context);
  const db = await getDatabase();
  const [lists, items] = await Promise.all([publicLists(db), publicListTerms(db, language, level)]);
  const owned = user
    ? await existingTexts(
        db,
        { userId: user.id, language },
        items.map((item) => item.text),
      )
    : new Set<string>();
  const codes = new Set([language, ...lists.map((list) => list.language)]);
  return {
    names: Object.fromEntries([...codes].map((code) => [code, studyLanguageName(code, locale)])),
    signedIn: user !== null,
    language,
    level,
    lists,
    /** The level filter offers the levels that have a list, in the order of LEVELS. */
    levels: LEVELS.filter((candidate) => lists.some((list) => list.level === candidate)),
    terms: items.map((item) => ({
      text: item.text,
      meaning: inLocale(item.meanings, locale),
      partOfSpeech: item.partOfSpeech,
      sentence: item.exampleSentence,
      translation: translationIn(item.exampleTranslations, locale, item.language),
      // What adding a term takes, for a signed-in learner only: an anonymous visitor's page (kept in memory, sent to
      // every visitor) carries no ids: random, they compress poorly (6 % of /de/explore's brotli).
      mine: user ? { id: item.id, owned: owned.has(item.text.toLowerCase()) } : null,
    })),
  };
}

/** Adds one public term or a whole list to the learner's terms; adding twice changes nothing. */
export async function publicPageAction(request: Request, context: Readonly<RouterContextProvider>, pagePath: string) {
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const user = context.get(userContext);
  const form = await readForm(request);
  const language = String(form.get("language") ?? "");
  const level = String(form.get("level") ?? "");
  const back = `${localePath(locale, pagePath)}?${new URLSearchParams({ language, level })}`;
  if (!user) {
    return redirectWithToast(
      request,
      localePath(locale, PATHS.signIn),
      translatedToast(t, "info", "learning:toasts.signInToAdd"),
    );
  }
  if (!isStudyLanguage(language) || !isLevel(level)) {
    return redirectWithToast(
      request,
      localePath(locale, pagePath),
      translatedToast(t, "error", {
        title: "learning:errors.invalidAction",
        description: "learning:errors.invalidLevel",
      }),
    );
  }
  const db = await getDatabase();
  const ids =
    form.get("intent") === "addAll"
      ? (await publicListTerms(db, language, level)).map((item) => item.id)
      : [form.get("termId")].filter(isId);
  if (!(await roomForTerms(db, user.id, ids.length)))
    return redirectWithToast(
      request,
      back,
      translatedToast(t, "error", { title: "common:toast.limit.title", description: "learning:errors.termLimit" }),
    );
  const added = await addPublicTerms(db, { userId: user.id, language }, ids, locale);
  // Terms belong to a study language: adding from another language's list means studying that language now.
  const headers = new Headers();
  if (language !== context.get(studyLanguageContext))
    headers.append("Set-Cookie", await chooseStudyLanguage(user, language));
  return redirectWithToast(
    request,
    back,
    translatedToast(t, "success", "learning:toasts.listAdded", { count: added }),
    { headers },
  );
}
