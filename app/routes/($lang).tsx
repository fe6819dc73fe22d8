import { Outlet, redirect } from "react-router";
import type { Route } from "./+types/($lang)";
import { pageNotFound } from "../http/errors";
import { DEFAULT_LOCALE, isLocale } from "../i18n/locales";

/** The optional locale prefix matches any first segment, so it is checked before anything below it runs. */
export const middleware: Route.MiddlewareFunction[] = [
  ({ params, request }) => {
    if (params.lang === undefined) return;
    if (params.lang === DEFAULT_LOCALE) {
      // English has no prefix: /en/explore is /explore.
      const url = new URL(request.url);
      throw redirect(url.pathname.replace(/^\/en(?=\/|$)/, "") + url.search || "/", 301);
    }
    if (!isLocale(params.lang)) pageNotFound(request);
  },
];

export default function LocalePrefix() {
  return <Outlet />;
}
