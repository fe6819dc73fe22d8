import { createCookie } from "react-router";
import { initReactI18next } from "react-i18next";
import { createI18nextMiddleware } from "remix-i18next";
import { env } from "../config/env.server";
import { requestPath } from "../http/request-path";
import { DEFAULT_LOCALE, LOCALE_COOKIE_MAX_AGE, LOCALES, isLocale, splitLocale, type Locale } from "./locales";
import { matchAcceptLanguage } from "./accept-language";
import { SERVER_I18NEXT_MODULES, SERVER_I18NEXT_OPTIONS } from "./server-options.server";

export const localeCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: env.secureCookies,
  maxAge: LOCALE_COOKIE_MAX_AGE,
});

const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...LOCALES],
    fallbackLanguage: DEFAULT_LOCALE,
    // The URL decides what is rendered; cookie and Accept-Language only choose where the bare root redirects.
    findLocale: async ({ request }) => splitLocale(requestPath(request)).locale,
  },
  i18next: SERVER_I18NEXT_OPTIONS,
  plugins: [initReactI18next, ...SERVER_I18NEXT_MODULES],
});

export { i18nextMiddleware, getInstance };

/** The locale a visitor of the bare root prefers: the language switch's cookie, else the best Accept-Language match. */
export async function preferredLocaleOf(cookieHeader: string | null, acceptLanguage: string | null): Promise<Locale> {
  const fromCookie = cookieHeader?.includes("lng=") ? await localeCookie.parse(cookieHeader) : null;
  if (isLocale(fromCookie)) return fromCookie;
  return matchAcceptLanguage(acceptLanguage, LOCALES) ?? DEFAULT_LOCALE;
}

/** The interface locale of a request, as decided by the i18n middleware: the one server-side way to read it. */
export function requestLocale(context: Parameters<typeof getLocale>[0]): Locale {
  const locale = getLocale(context);
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}
