import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/($lang)._default.form";
import { isSpam } from "../auth/honeypot.server";
import { authProvider } from "../auth/providers/index.server";
import { consumeRateLimit, releaseRateLimit, signInRules } from "../auth/rate-limit.server";
import { SignInForm } from "../auth/sign-in-form";
import { normaliseEmail } from "../auth/users.server";
import { getDatabase } from "../db/db.server";
import { clientIpContext } from "../http/client-ip.server";
import { log } from "../http/log.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { redirectWithToast } from "../toasts/toast.server";
import { useLocalePath } from "../ui/locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.form" };

const emailSchema = z.email().max(254);

/**
 * Sends a sign-in link. The answer is the same whether or not the address has an account; a bot that fills the
 * honeypot is told the same and nothing is sent.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const back = localePath(locale, "/form");
  const form = await request.formData();
  const sent = { type: "success", title: t("toast.sent.title"), description: t("toast.sent.description") } as const;
  if (await isSpam(form)) return redirectWithToast(request, back, sent);

  const parsed = emailSchema.safeParse(String(form.get("email") ?? "").trim());
  if (!parsed.success) {
    return redirectWithToast(request, back, { type: "error", title: t("toast.invalidEmail.title"), description: t("toast.invalidEmail.description") });
  }
  const email = normaliseEmail(parsed.data);
  const db = await getDatabase();
  const rules = signInRules(email, context.get(clientIpContext));
  const now = new Date();
  if (!(await consumeRateLimit(db, rules, now))) {
    return redirectWithToast(request, back, { type: "error", title: t("toast.rateLimited.title"), description: t("toast.rateLimited.description") });
  }
  try {
    await authProvider.sendSignInLink(db, { email, locale, t });
  } catch (error) {
    log.error("sign-in message not sent", { provider: authProvider.name, error });
    // Nothing reached the learner: asking again for this address is allowed (the per-IP count stays).
    await releaseRateLimit(db, rules.filter((rule) => rule.key.startsWith("signin:email:")), now);
    return redirectWithToast(request, back, { type: "error", title: t("toast.sendFailed.title"), description: t("toast.sendFailed.description") });
  }
  return redirectWithToast(request, back, sent);
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
