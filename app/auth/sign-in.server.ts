import type { TFunction } from "i18next";
import { redirect } from "react-router";
import { trackSignIn } from "../analytics/analytics.server";
import type { Database } from "../db/db.server";
import { safeTarget } from "../http/navigation";
import { localePath, type Locale } from "../i18n/locales";
import { redirectWithToast } from "../toasts/toast.server";
import { clearReturnTo, readReturnTo } from "./guard.server";
import { authProvider } from "./providers/index.server";
import { createSession } from "./session.server";
import { findOrCreateUser } from "./users.server";

/**
 * Finishes a sign-in from the confirm form: the provider checks the link, the app starts its own session and returns
 * the learner to the page the guard turned away (never another origin), or to their home.
 */
export async function completeSignIn(db: Database, request: Request, form: FormData, locale: Locale, t: TFunction): Promise<Response> {
  const params = Object.fromEntries(authProvider.linkParams.map((name) => [name, String(form.get(name) ?? "")]));
  const result = await authProvider.verify(db, params);
  if (!result.ok) {
    // The error page explains what went wrong and offers a new link.
    return redirect(`${localePath(locale, "/error")}?reason=${result.reason}`);
  }
  const user = await findOrCreateUser(db, result.email);
  const headers = new Headers();
  headers.append("Set-Cookie", await createSession(db, user.id));
  headers.append("Set-Cookie", await clearReturnTo());
  // Analytics never hold up the sign-in: sent in the background, failures logged.
  void trackSignIn(user);
  const target = safeTarget(await readReturnTo(request)) ?? localePath(locale, "/account/home");
  return redirectWithToast(request, target, { type: "success", title: t("toast.signedIn.title"), description: t("toast.signedIn.description", { email: user.email }) }, { headers });
}
