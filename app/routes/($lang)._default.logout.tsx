import { useTranslation } from "../i18n/use-translation";
import { Form, Link } from "react-router";
import type { Route } from "./+types/($lang)._default.logout";
import {
  CLEAR_DEVICE,
  clearSessionCookie,
  destroyAllSessions,
  destroySession,
  userContext,
} from "../auth/session.server";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { PATHS } from "../http/paths";
import { readForm } from "../http/request-body.server";
import { SignOutEverywhere } from "../auth/sign-out-everywhere";

export const handle: PageHandle = { title: "titles.logout", description: "descriptions.logout" };

export function loader({ context }: Route.LoaderArgs) {
  return { signedIn: context.get(userContext) !== null };
}

/**
 * Ends the session (row deleted, cookie cleared) and returns home with a toast; with `intent=everywhere`, every
 * session of the learner on every device. The browser is told to clear the device's stored review either way.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  const db = await getDatabase();
  const user = context.get(userContext);
  const home = localePath(requestLocale(context), "/");
  const everywhere =
    request.headers.get("Content-Type") !== null && (await readForm(request)).get("intent") === "everywhere";
  // The device's stored review goes with the session, with or without JavaScript (ADR 096).
  if (everywhere && user) {
    await destroyAllSessions(db, user.id);
    return redirectWithToast(request, home, translatedToast(t, "info", "toast.signedOutEverywhere"), {
      headers: { "Set-Cookie": await clearSessionCookie(), "Clear-Site-Data": CLEAR_DEVICE },
    });
  }
  const clear = await destroySession(db, request);
  return redirectWithToast(request, home, translatedToast(t, "info", "toast.signedOut"), {
    headers: { "Set-Cookie": clear, "Clear-Site-Data": CLEAR_DEVICE },
  });
}

export default function LogoutPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <section className="narrow">
      <h1>{t("common:titles.logout")}</h1>
      {loaderData.signedIn ? (
        <>
          <p>{t("logout.intro")}</p>
          <Form method="post">
            <button type="submit" className="button">
              {t("logout.submit")}
            </button>
          </Form>
          <SignOutEverywhere />
        </>
      ) : (
        <>
          <p>{t("logout.signedOut")}</p>
          <p>
            <Link to={to(PATHS.signIn)} className="button">
              {t("common:nav.signIn")}
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
