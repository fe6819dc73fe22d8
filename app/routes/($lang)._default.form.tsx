import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/($lang)._default.form";
import { SignInForm } from "../auth/sign-in-form";
import { requestSignIn } from "../auth/sign-in.server";
import { getDatabase } from "../db/db.server";
import { clientIpContext } from "../server/client-ip.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { readForm } from "../http/request-body.server";

export const handle: PageHandle = { title: "titles.form" };

/** Sends a sign-in link (see requestSignIn). */
export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  const form = await readForm(request);
  return requestSignIn(await getDatabase(), request, form, { locale: requestLocale(context), t, clientIp: context.get(clientIpContext) });
}

export default function SignInPage() {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <section className="narrow">
      <h1>{t("common:titles.form")}</h1>
      <p>{t("form.intro")}</p>
      <SignInForm />
      <p className="hint">
        {t("form.privacyNote")} <Link to={to("/company/terms-of-use")}>{t("common:footer.termsOfUse")}</Link> ·{" "}
        <Link to={to("/company/privacy")}>{t("common:footer.privacy")}</Link>
      </p>
    </section>
  );
}
