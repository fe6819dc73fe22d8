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
import { badRequest, dispatchIntents, intent, text, type FormFields } from "../http/intents.server";
import { z } from "zod";

// The forms this action takes, built once: building a schema costs more than parsing a form with it.
const studyLanguageFields = z.object({ studyLanguage: z.custom<string>(isStudyLanguage), redirectTo: text() });
const levelFields = z.object({ level: z.unknown().optional(), redirectTo: text() });

/** The study language (cookie, and the learner's record when signed in) and the learner's level. Plain form POSTs. */
export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  const user = context.get(userContext);
  // Every answer, refusals included, goes back to the page the form was on (redirectTo, else My home) with a toast.
  const backTo = ({ redirectTo }: { redirectTo?: unknown }) => {
    const sent = safeTarget(Array.isArray(redirectTo) ? redirectTo[0] : redirectTo);
    const back = sent ?? localePath(requestLocale(context), PATHS.learnerHome);
    return { back, locale: splitLocale(new URL(back, "http://internal.invalid").pathname).locale };
  };
  const refused = (fields: FormFields, title: string, description: string) =>
    redirectWithToast(request, backTo(fields).back, translatedToast(t, "error", { title, description }));
  return dispatchIntents(
    request,
    {
      studyLanguage: intent({
        schema: studyLanguageFields,
        run: async ({ studyLanguage, redirectTo }) => {
          const { back, locale } = backTo({ redirectTo });
          const cookie = await chooseStudyLanguage(user, studyLanguage);
          const language = studyLanguageName(studyLanguage, locale);
          return redirectWithToast(
            request,
            back,
            translatedToast(t, "success", "learning:toasts.studyLanguageSaved", { language }),
            { headers: { "Set-Cookie": cookie } },
          );
        },
        invalid: (_, fields) => refused(fields, "learning:studyLanguage.label", "learning:errors.invalidLanguage"),
      }),
      level: intent({
        schema: levelFields,
        run: async ({ level, redirectTo }) => {
          const { back, locale } = backTo({ redirectTo });
          if (!user)
            return redirectWithToast(
              request,
              localePath(locale, PATHS.signIn),
              translatedToast(t, "info", "learning:toasts.signInToAdd"),
            );
          if (!isLevel(level)) return refused({ redirectTo }, "learning:level.label", "learning:errors.invalidLevel");
          await saveLevel(await getDatabase(), user.id, level);
          return redirectWithToast(
            request,
            back,
            translatedToast(t, "success", "learning:toasts.levelSaved", { level: t(`lists:levels.${level}`) }),
          );
        },
      }),
    },
    {
      unknown: (_, fields) => refused(fields, "learning:errors.invalidAction", "learning:errors.invalidAction"),
      invalid: badRequest,
    },
  );
}

/** Only the form POST lives here: a visit is the 404 page, and a refused POST gets the translated error page. */
export function loader({ request }: Route.LoaderArgs): never {
  pageNotFound(request);
}

export default function PreferencesTarget() {
  return null;
}
