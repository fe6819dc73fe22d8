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

/** Each Referrer-Policy's list of security headers, made once. */
const securityLists = new Map<string, readonly string[]>();

/**
 * The headers every answer carries, whoever answers it (memory, the 503 page, Express), as names and values in turn:
 * the form `writeHead` takes whole.
 */
export function securityHeaderList(pathname: string): readonly string[] {
  const referrerPolicy = referrerPolicyFor(pathname);
  let list = securityLists.get(referrerPolicy);
  if (!list) {
    list = Object.freeze([
      "X-Content-Type-Options",
      "nosniff",
      "Referrer-Policy",
      referrerPolicy,
      "X-Frame-Options",
      "DENY",
      "Cross-Origin-Opener-Policy",
      "same-origin",
      "Permissions-Policy",
      "camera=(), microphone=(), geolocation=(), payment=()",
      ...(env.secureCookies ? ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] : []),
    ]);
    securityLists.set(referrerPolicy, list);
  }
  return list;
}

/** Sets the headers every answer carries (securityHeaderList) on a response. */
export function setSecurityHeaders(res: ServerResponse, pathname: string) {
  const list = securityHeaderList(pathname);
  for (let i = 0; i < list.length; i += 2) res.setHeader(list[i]!, list[i + 1]!);
}

/** The first segments of the pages that are always a visitor's own: the account, and the sign-in steps. */
const PERSONAL_ROOTS = [
  ...new Set([PATHS.learnerHome, PATHS.signIn, PATHS.confirm, PATHS.logout].map((path) => path.split("/")[1]!)),
];
/** Those pages, in every locale, and React Router's data of any page (`.data`). */
export const PERSONAL_PATH = new RegExp(`^(?:/[a-z]{2})?/(?:${PERSONAL_ROOTS.join("|")})(?:[/.]|$)|\\.data$`);
const PERSONAL_COOKIE = new RegExp(`(?:^|;\\s*)(?:${[SESSION_COOKIE, TOAST_COOKIE].join("|")})=`);

/** What a personal answer tells caches: shared ones never store it. */
export const PERSONAL_CACHE_CONTROL = "private, no-store";

/** Answers that are never personal, whatever the request carries: the probes and the hashed assets. */
const neverPersonal = (pathname: string) =>
  pathname === "/healthz" || pathname === "/readyz" || pathname.startsWith("/assets/");

/** A request whose answer is for this visitor only: it answers a session or a form, or is an account or data URL. */
export function isPersonalRequest(method: string, pathname: string, cookie: string | undefined): boolean {
  if (neverPersonal(pathname)) return false;
  return method === "POST" || PERSONAL_COOKIE.test(cookie ?? "") || PERSONAL_PATH.test(pathname);
}

/** A response for this visitor only: a personal request's, or one that sets a cookie. */
function isPersonal(method: string, pathname: string, cookie: string | undefined, res: ServerResponse): boolean {
  if (neverPersonal(pathname)) return false;
  return res.getHeader("Set-Cookie") !== undefined || isPersonalRequest(method, pathname, cookie);
}

/** A learner's sound by its hash (ADR 126): private, but the browser may keep it, as its URL names its bytes. */
const SOUND_PATH = /^(?:\/[a-z]{2})?\/account\/sounds\/[0-9a-f]{64}$/;

/** Anything that depends on the visitor is never stored by shared caches. */
export function markPersonal(method: string, pathname: string, cookie: string | undefined, res: ServerResponse) {
  if (!isPersonal(method, pathname, cookie, res)) return;
  const own = String(res.getHeader("Cache-Control") ?? "");
  if (!(SOUND_PATH.test(pathname) && own.startsWith("private,")))
    res.setHeader("Cache-Control", PERSONAL_CACHE_CONTROL);
  res.setHeader("Vary", mergeVary(res.getHeader("Vary"), "Cookie"));
}

function mergeVary(current: ReturnType<ServerResponse["getHeader"]>, name: string): string {
  const values = String(current ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  return values.some((v) => v.toLowerCase() === name.toLowerCase()) ? values.join(", ") : [...values, name].join(", ");
}
