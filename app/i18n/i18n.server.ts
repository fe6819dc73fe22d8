import { createInstance, type i18n } from "i18next";
import { createContext, createCookie, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { initReactI18next } from "react-i18next";
import { env } from "../config/env.server";
import { requestPath } from "../http/request-path";
import {
  DEFAULT_LOCALE,
  LOCALE_COOKIE_MAX_AGE,
  LOCALES,
  NAMESPACES,
  isLocale,
  splitLocale,
  type Locale,
} from "./locales";
import { resources } from "./resources.server";
import { matchAcceptLanguage } from "./accept-language";

export const localeCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: env.secureCookies,
  maxAge: LOCALE_COOKIE_MAX_AGE,
});

const localeContext = createContext<Locale>(DEFAULT_LOCALE);
const instanceContext = createContext<i18n | null>(null);

/**
 * One i18next instance per locale for the whole process, initialised on first use: the translations never change
 * while the server runs and nothing on the server changes an instance's language or resources, so requests share it
 * instead of building one each (that was a measurable share of every render).
 */
const instances = new Map<Locale, Promise<i18n>>();
function instanceFor(locale: Locale): Promise<i18n> {
  let instance = instances.get(locale);
  if (!instance) {
    const created = createInstance({
      resources,
      lng: locale,
      ns: [...NAMESPACES],
      defaultNS: "common",
      interpolation: { escapeValue: false },
    }).use(initReactI18next);
    instance = created.init().then(() => created);
    instances.set(locale, instance);
  }
  return instance;
}

/** Decides the request's locale (the URL says it; cookie and Accept-Language only steer the bare root's redirect). */
export const i18nextMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { locale } = splitLocale(requestPath(request));
  context.set(localeContext, locale);
  context.set(instanceContext, await instanceFor(locale));
  return next();
};

/** The i18next instance of the request's locale (set by the i18n middleware, which runs first). */
export function getInstance(context: Readonly<RouterContextProvider>): i18n {
  const instance = context.get(instanceContext);
  if (!instance) throw new Error("the i18n middleware has not run for this request");
  return instance;
}

/** The locale a visitor of the bare root prefers: the language switch's cookie, else the best Accept-Language match. */
export async function preferredLocaleOf(cookieHeader: string | null, acceptLanguage: string | null): Promise<Locale> {
  const fromCookie = cookieHeader?.includes("lng=") ? await localeCookie.parse(cookieHeader) : null;
  if (isLocale(fromCookie)) return fromCookie;
  return matchAcceptLanguage(acceptLanguage, LOCALES) ?? DEFAULT_LOCALE;
}

/** The interface locale of a request, as decided by the i18n middleware: the one server-side way to read it. */
export function requestLocale(context: Readonly<RouterContextProvider>): Locale {
  return context.get(localeContext);
}
