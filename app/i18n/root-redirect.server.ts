import { isBot } from "../http/bots.server";
import { redirect, type MiddlewareFunction } from "react-router";
import { isDataRequest, requestPath } from "../http/request-path";
import { preferredLocaleOf } from "./i18n.server";
import { DEFAULT_LOCALE, localePath, type Locale } from "./locales";

/** The locale the bare root sends a visitor to, or null when it shows the English home (bots, English speakers). */
export async function rootRedirectLocale(headers: {
  cookie: string | null;
  acceptLanguage: string | null;
  userAgent: string | null;
}): Promise<Locale | null> {
  if (isBot(headers.userAgent)) return null;
  const locale = await preferredLocaleOf(headers.cookie, headers.acceptLanguage);
  return locale === DEFAULT_LOCALE ? null : locale;
}

/**
 * Only the bare root chooses a language for the visitor: the language switch's cookie first, then Accept-Language.
 * Every other URL says its language itself, and bots are never redirected.
 */
export const rootRedirectMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const url = new URL(request.url);
  // A client-side navigation to `/` keeps the language the visitor is browsing in, as it always has.
  if (requestPath(request) !== "/" || isDataRequest(request) || request.method !== "GET") return next();
  const { headers } = request;
  const locale = await rootRedirectLocale({
    cookie: headers.get("Cookie"),
    acceptLanguage: headers.get("Accept-Language"),
    userAgent: headers.get("User-Agent"),
  });
  if (locale) {
    throw redirect(localePath(locale, "/") + url.search, {
      status: 302,
      headers: { Vary: "Accept-Language, Cookie", "Cache-Control": "private, no-store" },
    });
  }
  const response = await next();
  response.headers.append("Vary", "Accept-Language, Cookie");
  return response;
};
