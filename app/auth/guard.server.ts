import { redirect, type MiddlewareFunction } from "react-router";
import { readCookie, signedCookie } from "../http/cookies.server";
import { safeTarget } from "../http/navigation";
import { requestPath } from "../http/request-path";
import { localePath, splitLocale } from "../i18n/locales";
import { GUARD, isGuarded, type GuardConfig } from "./guard";
import { userContext } from "./session.server";

/** Where to return after signing in: the full path the guard turned away, kept for 15 minutes. */
const returnToCookie = signedCookie("redirect-to", { maxAge: 15 * 60 });

export async function readReturnTo(request: Request): Promise<string | null> {
  return safeTarget(await readCookie<string>(returnToCookie, request));
}

/** The Set-Cookie header that brings a visitor back to `path` after signing in (a form that needs an account). */
export function returnAfterSignIn(path: string): Promise<string> {
  return returnToCookie.serialize(safeTarget(path) ?? "/");
}

export function clearReturnTo(): Promise<string> {
  return returnToCookie.serialize("", { maxAge: 0 });
}

/** Runs on every navigation: a signed-out visitor of a guarded route is sent to the login page in their language. */
export function guardMiddleware(config: GuardConfig = GUARD): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    const url = new URL(request.url);
    const pathname = requestPath(request);
    const { locale, path } = splitLocale(pathname);
    if (!isGuarded(path, config) || context.get(userContext)) return next();
    const requested = safeTarget(pathname + url.search);
    const headers = new Headers();
    if (requested && request.method === "GET") headers.append("Set-Cookie", await returnToCookie.serialize(requested));
    throw redirect(localePath(locale, config.loginPath), { headers });
  };
}
