import type { Route } from "./+types/preferences";
import { userContext } from "../auth/session.server";
import { getDatabase } from "../db/db.server";
import { safeTarget } from "../http/navigation";
import { pageNotFound } from "../http/errors";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath, splitLocale } from "../i18n/locales";
import { chooseStudyLanguage, saveLevel } from "../learning/preferences.server";
import { studyLanguageName } from "../learning/study-language";
import { isLevel, isStudyLanguage } from "../learning/vocabulary";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import { PATHS } from "../http/paths";
import { readForm } from "../http/request-body.server";

/** The study language (cookie, and the learner's record when signed in) and the learner's level. Plain form POSTs. */
export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  const form = await readForm(request);
  const back = safeTarget(form.get("redirectTo")) ?? localePath(requestLocale(context), PATHS.learnerHome);
  const locale = splitLocale(new URL(back, "http://internal.invalid").pathname).locale;
  const user = context.get(userContext);
  const intent = form.get("intent");

  if (intent === "studyLanguage") {
    const code = form.get("studyLanguage");
    if (!isStudyLanguage(code)) {
      return redirectWithToast(
        request,
        back,
        translatedToast(t, "error", {
          title: "learning:studyLanguage.label",
          description: "learning:errors.invalidLanguage",
        }),
      );
    }
    const cookie = await chooseStudyLanguage(user, code);
    const language = studyLanguageName(code, locale);
    return redirectWithToast(
      request,
      back,
      translatedToast(t, "success", "learning:toasts.studyLanguageSaved", { language }),
      { headers: { "Set-Cookie": cookie } },
    );
  }

  if (intent === "level") {
    if (!user) {
      return redirectWithToast(
        request,
        localePath(locale, PATHS.signIn),
        translatedToast(t, "info", "learning:toasts.signInToAdd"),
      );
    }
    const level = form.get("level");
    if (!isLevel(level)) {
      return redirectWithToast(
        request,
        back,
        translatedToast(t, "error", { title: "learning:level.label", description: "learning:errors.invalidLevel" }),
      );
    }
    await saveLevel(await getDatabase(), user.id, level);
    return redirectWithToast(
      request,
      back,
      translatedToast(t, "success", "learning:toasts.levelSaved", { level: t(`learning:levels.${level}`) }),
    );
  }

  return redirectWithToast(
    request,
    back,
    translatedToast(t, "error", {
      title: "learning:errors.invalidAction",
      description: "learning:errors.invalidAction",
    }),
  );
}

/** Only the form POST lives here: a visit is the 404 page, and a refused POST gets the translated error page. */
export function loader({ request }: Route.LoaderArgs): never {
  pageNotFound(request);
}

export default function PreferencesTarget() {
  return null;
}
