import type { ServerResponse } from "node:http";
import { holdsSignInToken } from "../analytics/token-pages";
import { SESSION_COOKIE } from "../auth/session.server";
import { env } from "../config/env.server";
import { PATHS } from "../http/paths";
import { TOAST_COOKIE } from "../toasts/toast.server";

/**
 * The Referrer-Policy of a path: from a page holding a sign-in token, no referrer to any other site (`same-origin`,
 * not `no-referrer`: with that, browsers send `Origin: null` with the page's own form post, which the cross-site check
 * must refuse, so the link would not work without JavaScript); the site's usual policy elsewhere.
 */
export const referrerPolicyFor = (pathname: string) =>
  holdsSignInToken(pathname) ? "same-origin" : "strict-origin-when-cross-origin";

/** The headers every answer carries, whoever answers it (memory, the 503 page, Express). */
export function setSecurityHeaders(res: ServerResponse, pathname: string) {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", referrerPolicyFor(pathname));
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  if (env.secureCookies) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}

/** The first segments of the pages that are always a visitor's own: the account, and the sign-in steps. */
const PERSONAL_ROOTS = [
  ...new Set([PATHS.learnerHome, PATHS.signIn, PATHS.confirm, PATHS.logout].map((path) => path.split("/")[1]!)),
];
/** Those pages, in every locale, and React Router's data of any page (`.data`). */
export const PERSONAL_PATH = new RegExp(`^(?:/[a-z]{2})?/(?:${PERSONAL_ROOTS.join("|")})(?:[/.]|$)|\\.data$`);
const PERSONAL_COOKIE = new RegExp(`(?:^|;\\s*)(?:${[SESSION_COOKIE, TOAST_COOKIE].join("|")})=`);

/** A response for this visitor only: it sets a cookie, answers a session or a form, or is an account or data URL. */
function isPersonal(method: string, pathname: string, cookie: string | undefined, res: ServerResponse): boolean {
  if (pathname === "/healthz" || pathname === "/readyz" || pathname.startsWith("/assets/")) return false;
  return (
    res.getHeader("Set-Cookie") !== undefined ||
    method === "POST" ||
    PERSONAL_COOKIE.test(cookie ?? "") ||
    PERSONAL_PATH.test(pathname)
  );
}

/** Anything that depends on the visitor is never stored by shared caches. */
export function markPersonal(method: string, pathname: string, cookie: string | undefined, res: ServerResponse) {
  if (!isPersonal(method, pathname, cookie, res)) return;
  res.setHeader("Cache-Control", "private, no-store");
  res.setHeader("Vary", mergeVary(res.getHeader("Vary"), "Cookie"));
}

function mergeVary(current: ReturnType<ServerResponse["getHeader"]>, name: string): string {
  const values = String(current ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  return values.some((v) => v.toLowerCase() === name.toLowerCase()) ? values.join(", ") : [...values, name].join(", ");
}
