import { useTranslation } from "../i18n/use-translation";
import { Link } from "react-router";
import type { Route } from "./+types/($lang)._default.form";
import { SentPanel } from "../auth/sent-panel";
import { SignInForm } from "../auth/sign-in-form";
import { requestSignIn } from "../auth/sign-in.server";
import { linkDelivery, sentNotice } from "../auth/sign-in-sent.server";
import { getDatabase } from "../db/db.server";
import { clientIpContext } from "../server/client-ip.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";
import { readForm } from "../http/request-body.server";
import { PATHS } from "../http/paths";
import { waitingToasts } from "../toasts/toast.server";

/** The sign-in form, and whether a learner is signed in. */
export const handle: PageHandle & StalenessHandle = {
  title: "titles.form",
  description: "descriptions.form",
  staleness: { dependsOn: ["learner"] },
};

/** The page keeps saying where the last link went, until the visitor asks to use another address. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const another = new URL(request.url).searchParams.has("another");
  // A refused address comes back in its toast: the form is shown again with it, whatever was sent before.
  const refused = waitingToasts(context).find((toast) => toast.field?.name === "email");
  const invalid = refused?.field ? { value: refused.field.value, message: refused.description } : null;
  return { sent: another || invalid ? null : await sentNotice(request), invalid, delivery: linkDelivery };
}

/** Sends a sign-in link (see requestSignIn). */
export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  const form = await readForm(request);
  return requestSignIn(await getDatabase(), request, form, {
    locale: requestLocale(context),
    t,
    clientIp: context.get(clientIpContext),
  });
}

export default function SignInPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  const { sent, invalid, delivery } = loaderData;
  return (
    <section className="narrow">
      <h1>{t("common:titles.form")}</h1>
      {sent ? (
        <SentPanel
          key={`${sent.email} ${sent.waitSeconds}`}
          email={sent.email}
          waitSeconds={sent.waitSeconds}
          delivery={delivery}
        />
      ) : (
        <>
          <p>{t("form.intro")}</p>
          <SignInForm invalid={invalid} />
        </>
      )}
      <p className="hint">
        {t("form.privacyNote")} <Link to={to(PATHS.termsOfUse)}>{t("common:footer.termsOfUse")}</Link> ·{" "}
        <Link to={to(PATHS.privacy)}>{t("common:footer.privacy")}</Link>
      </p>
    </section>
  );
}
