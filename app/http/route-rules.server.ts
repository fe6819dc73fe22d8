import type { MiddlewareFunction } from "react-router";
import { localePath, splitLocale } from "../i18n/locales";
import { safeRedirect } from "./redirect.server";
import { requestPath } from "./request-path";
import { ROUTE_RULES } from "./route-rules";

export const routeRulesMiddleware: MiddlewareFunction<Response> = ({ request }, next) => {
  const url = new URL(request.url);
  const { locale, path } = splitLocale(requestPath(request));
  const rule = ROUTE_RULES[path];
  if (!rule) return next();
  const target = rule.external ? rule.to : localePath(locale, rule.to) + url.search;
  throw safeRedirect(target, "/", { status: rule.status ?? 301, external: rule.external });
};
