import { isbot } from "isbot";
import { redirect, type MiddlewareFunction } from "react-router";
import { isDataRequest, requestPath } from "../http/request-path";
import { preferredLocale } from "./i18n.server";
import { DEFAULT_LOCALE, localePath } from "./locales";

/**
 * Only the bare root chooses a language for the visitor: the language switch's cookie first, then Accept-Language.
 * Every other URL says its language itself, and bots are never redirected.
 */
export const rootRedirectMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const url = new URL(request.url);
  // A client-side navigation to `/` keeps the language the visitor is browsing in, as it always has.
  if (requestPath(request) !== "/" || isDataRequest(request) || request.method !== "GET") return next();
  const userAgent = request.headers.get("User-Agent");
  if (!userAgent || !isbot(userAgent)) {
    const locale = await preferredLocale(request);
    if (locale !== DEFAULT_LOCALE) {
      throw redirect(localePath(locale, "/") + url.search, {
        status: 302,
        headers: { Vary: "Accept-Language, Cookie", "Cache-Control": "private, no-store" },
      });
    }
  }
  const response = await next();
  response.headers.append("Vary", "Accept-Language, Cookie");
  return response;
};
