import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/($lang)._default.form";
import { isSpam } from "../auth/honeypot.server";
import { authProvider } from "../auth/providers/index.server";
import { consumeRateLimit, signInRules } from "../auth/rate-limit.server";
import { SentPanel } from "../auth/sent-panel";
import { SignInForm } from "../auth/sign-in-form";
import { linkDelivery, sentHeader, sentNotice } from "../auth/sign-in-sent.server";
import { normaliseEmail } from "../auth/users.server";
import { getDatabase } from "../db/db.server";
import { clientIpContext } from "../http/client-ip.server";
import { log } from "../http/log.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { redirectWithToast } from "../toasts/toast.server";
import { useLocalePath } from "../ui/locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.form", description: "descriptions.form" };

const emailSchema = z.email().max(254);

/** The page keeps saying where the last link went, until the visitor asks to use another address. */
export async function loader({ request }: Route.LoaderArgs) {
  const another = new URL(request.url).searchParams.has("another");
  return { sent: another ? null : await sentNotice(request), delivery: linkDelivery };
}

/**
 * Sends a sign-in link. The answer is the same whether or not the address has an account; a bot that fills the
 * honeypot is told the same and nothing is sent.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const back = localePath(locale, "/form");
  const form = await request.formData();
  const toastKey = linkDelivery === "log" ? "toast.sentToLog" : "toast.sent";
  const sentToast = { type: "success", title: t(`${toastKey}.title`), description: t(`${toastKey}.description`) } as const;
  const sent = async (email: string) => redirectWithToast(request, back, sentToast, { headers: { "Set-Cookie": await sentHeader(email) } });
  if (await isSpam(form)) return sent(String(form.get("email") ?? "").trim().slice(0, 254));

  const parsed = emailSchema.safeParse(String(form.get("email") ?? "").trim());
  if (!parsed.success) {
    return redirectWithToast(request, back, { type: "error", title: t("toast.invalidEmail.title"), description: t("toast.invalidEmail.description") });
  }
  const email = normaliseEmail(parsed.data);
  const db = await getDatabase();
  if (!(await consumeRateLimit(db, signInRules(email, context.get(clientIpContext))))) {
    return redirectWithToast(request, back, { type: "error", title: t("toast.rateLimited.title"), description: t("toast.rateLimited.description") });
  }
  try {
    await authProvider.sendSignInLink(db, { email, locale, t });
  } catch (error) {
    log.error("sign-in message not sent", { provider: authProvider.name, error });
    return redirectWithToast(request, back, { type: "error", title: t("toast.sendFailed.title"), description: t("toast.sendFailed.description") });
  }
  return sent(email);
}

export default function SignInPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  const { sent, delivery } = loaderData;
  return (
    <section className="narrow">
      <h1>{t("common:titles.form")}</h1>
      {sent ? (
        <SentPanel key={`${sent.email} ${sent.waitSeconds}`} email={sent.email} waitSeconds={sent.waitSeconds} delivery={delivery} />
      ) : (
        <>
          <p>{t("form.intro")}</p>
          <SignInForm />
        </>
      )}
      <p className="hint">
        {t("form.privacyNote")} <Link to={to("/company/terms-of-use")}>{t("common:footer.termsOfUse")}</Link> ·{" "}
        <Link to={to("/company/privacy")}>{t("common:footer.privacy")}</Link>
      </p>
    </section>
  );
}
