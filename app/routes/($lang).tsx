import { Outlet, redirect } from "react-router";
import type { Route } from "./+types/($lang)";
import type { StalenessHandle } from "../edge/staleness";
import { pageNotFound } from "../http/errors";
import { safeTarget } from "../http/navigation";
import { requestPath } from "../http/request-path";
import { DEFAULT_LOCALE, isLocale } from "../i18n/locales";

/**
 * The optional locale prefix matches any first segment, so it is checked here. A loader, not a middleware: the root
 * loader still runs beside it, so the 404 page keeps its layout data (origin, learner, year).
 */
/** The locale check reads the request only. */
export const handle: StalenessHandle = { staleness: { dependsOn: [] } };

export function loader({ params, request }: Route.LoaderArgs) {
  if (params.lang === undefined) return null;
  if (params.lang === DEFAULT_LOCALE) {
    // English has no prefix: /en/explore is /explore. Through the gate: /en//evil.example must not become //evil.example.
    const target = safeTarget((requestPath(request).replace(/^\/en(?=\/|$)/, "") || "/") + new URL(request.url).search);
    if (!target) pageNotFound(request);
    throw redirect(target, 301);
  }
  if (!isLocale(params.lang)) pageNotFound(request);
  return null;
}

export default function LocalePrefix() {
  return <Outlet />;
}
