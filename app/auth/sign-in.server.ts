import type { TFunction } from "i18next";
import { redirect } from "react-router";
import { z } from "zod";
import { trackSignIn } from "../analytics/analytics.server";
import type { Database } from "../db/db.server";
import { safeTarget } from "../http/navigation";
import { localePath, type Locale } from "../i18n/locales";
import { log } from "../server/log.server";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import { clearReturnTo, readReturnTo } from "./guard.server";
import { checkHoneypot } from "./honeypot.server";
import { linkDelivery, sentHeader } from "./sign-in-sent.server";
import { authProvider } from "./providers/index.server";
import { consumeRateLimit, releaseRateLimit, signInRules } from "./rate-limit.server";
import { createSession } from "./session.server";
import { findOrCreateUser, normaliseEmail } from "./users.server";
import { PATHS } from "../http/paths";

const emailSchema = z.email().max(254);

/**
 * Sends a sign-in link from the sign-in form. The answer is the same whether or not the address has an account; a
 * bot that fills the honeypot (or leaves its fields out) is told the same and nothing is sent; a form whose honeypot
 * timestamp cannot be read (rendered before a restart or a key rotation) is asked to be sent again.
 */
export async function requestSignIn(
  db: Database,
  request: Request,
  form: FormData,
  { locale, t, clientIp }: { locale: Locale; t: TFunction; clientIp: string | null },
): Promise<Response> {
  const back = localePath(locale, PATHS.signIn);
  // The toast and the sent panel say where the link went: a mailbox, or (in development without mail) the server log.
  const sentToast = translatedToast(t, "success", linkDelivery === "log" ? "toast.sentToLog" : "toast.sent");
  const sent = async (email: string) =>
    redirectWithToast(request, back, sentToast, { headers: { "Set-Cookie": await sentHeader(email) } });
  const honeypotVerdict = await checkHoneypot(form);
  if (honeypotVerdict === "spam")
    return sent(
      String(form.get("email") ?? "")
        .trim()
        .slice(0, 254),
    );
  if (honeypotVerdict === "stale")
    return redirectWithToast(request, back, translatedToast(t, "error", "toast.staleForm"));

  const typed = String(form.get("email") ?? "").trim();
  const parsed = emailSchema.safeParse(typed);
  // The toast carries the address back, so the form shows it again with the message beside the field.
  if (!parsed.success)
    return redirectWithToast(request, back, {
      ...translatedToast(t, "error", "toast.invalidEmail"),
      field: { name: "email", value: typed.slice(0, 254) },
    });
  const email = normaliseEmail(parsed.data);
  const rules = signInRules(email, clientIp);
  const now = new Date();
  if (!(await consumeRateLimit(db, rules, now))) {
    return redirectWithToast(request, back, translatedToast(t, "error", "toast.rateLimited"));
  }
  try {
    await authProvider.sendSignInLink(db, { email, locale, t });
  } catch (error) {
    log.error("sign-in message not sent", { provider: authProvider.name, error });
    // Nothing reached the learner: asking again for this address is allowed (the per-IP count stays).
    await releaseRateLimit(
      db,
      rules.filter((rule) => rule.key.startsWith("signin:email:")),
      now,
    );
    return redirectWithToast(request, back, translatedToast(t, "error", "toast.sendFailed"));
  }
  return sent(email);
}

/**
 * Finishes a sign-in from the confirm form: the provider checks the link, the app starts its own session and returns
 * the learner to the page the guard turned away (never another origin), or to their home.
 */
export async function completeSignIn(
  db: Database,
  request: Request,
  form: FormData,
  locale: Locale,
  t: TFunction,
): Promise<Response> {
  const params = Object.fromEntries(authProvider.linkParams.map((name) => [name, String(form.get(name) ?? "")]));
  const result = await authProvider.verify(db, params);
  if (!result.ok) {
    // The error page explains what went wrong and offers a new link.
    return redirect(`${localePath(locale, PATHS.error)}?reason=${result.reason}`);
  }
  const user = await findOrCreateUser(db, result.email);
  const headers = new Headers();
  headers.append("Set-Cookie", await createSession(db, user.id, request.headers.get("User-Agent") ?? ""));
  headers.append("Set-Cookie", await clearReturnTo());
  // Analytics never hold up the sign-in: sent in the background, failures logged.
  void trackSignIn({ id: user.id, email: user.email, createdAt: user.createdAt });
  const target = safeTarget(await readReturnTo(request)) ?? localePath(locale, PATHS.learnerHome);
  return redirectWithToast(request, target, translatedToast(t, "success", "toast.signedIn", { email: user.email }), {
    headers,
  });
}
