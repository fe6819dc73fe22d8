import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import type { Route } from "./+types/($lang)._default.logout";
import { destroySession, userContext } from "../auth/session.server";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { redirectWithToast } from "../toasts/toast.server";
import { useLocalePath } from "../ui/locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.logout", description: "descriptions.logout" };

export function loader({ context }: Route.LoaderArgs) {
  return { signedIn: context.get(userContext) !== null };
}

/** Ends the session (row deleted, cookie cleared) and returns home with a toast. */
export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  const clear = await destroySession(await getDatabase(), request);
  return redirectWithToast(request, localePath(requestLocale(context), "/"), { type: "info", title: t("toast.signedOut.title"), description: t("toast.signedOut.description") }, { headers: { "Set-Cookie": clear } });
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
            <button type="submit" className="button">{t("logout.submit")}</button>
          </Form>
        </>
      ) : (
        <>
          <p>{t("logout.signedOut")}</p>
          <p><Link to={to("/form")} className="button">{t("common:nav.signIn")}</Link></p>
        </>
      )}
    </section>
  );
}
