import type { Route } from "./+types/preferences";
import { userContext } from "../auth/session.server";
import { getDatabase } from "../db/db.server";
import { safeTarget } from "../http/navigation";
import { pageNotFound } from "../http/errors";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath, splitLocale } from "../i18n/locales";
import { saveLevel, saveStudyLanguage, studyLanguageHeader } from "../learning/preferences.server";
import { studyLanguageName } from "../learning/study-language";
import { isLevel, isStudyLanguage } from "../learning/vocabulary";
import { redirectWithToast } from "../toasts/toast.server";
import { readForm } from "../http/request-body.server";

/** The study language (cookie, and the learner's record when signed in) and the learner's level. Plain form POSTs. */
export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  const form = await readForm(request);
  const back = safeTarget(form.get("redirectTo")) ?? localePath(requestLocale(context), "/account/home");
  const locale = splitLocale(new URL(back, "http://internal.invalid").pathname).locale;
  const user = context.get(userContext);
  const intent = form.get("intent");

  if (intent === "studyLanguage") {
    const code = form.get("studyLanguage");
    if (!isStudyLanguage(code)) {
      return redirectWithToast(request, back, { type: "error", title: t("learning:studyLanguage.label"), description: t("learning:errors.invalidLanguage") });
    }
    if (user) await saveStudyLanguage(await getDatabase(), user.id, code);
    const language = studyLanguageName(code, locale);
    return redirectWithToast(
      request,
      back,
      { type: "success", title: t("learning:toasts.studyLanguageSaved.title"), description: t("learning:toasts.studyLanguageSaved.description", { language }) },
      { headers: { "Set-Cookie": await studyLanguageHeader(code) } },
    );
  }

  if (intent === "level") {
    if (!user) {
      return redirectWithToast(request, localePath(locale, "/form"), { type: "info", title: t("learning:toasts.signInToAdd.title"), description: t("learning:toasts.signInToAdd.description") });
    }
    const level = form.get("level");
    if (!isLevel(level)) {
      return redirectWithToast(request, back, { type: "error", title: t("learning:level.label"), description: t("learning:errors.invalidLevel") });
    }
    await saveLevel(await getDatabase(), user.id, level);
    return redirectWithToast(request, back, { type: "success", title: t("learning:toasts.levelSaved.title"), description: t("learning:toasts.levelSaved.description", { level: t(`learning:levels.${level}`) }) });
  }

  return redirectWithToast(request, back, { type: "error", title: t("learning:errors.invalidAction"), description: t("learning:errors.invalidAction") });
}

/** Only the form POST lives here: a visit is the 404 page, and a refused POST gets the translated error page. */
export function loader({ request }: Route.LoaderArgs): never {
  pageNotFound(request);
}

export default function PreferencesTarget() {
  return null;
}
