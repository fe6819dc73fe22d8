import { createCookie, type CookieOptions } from "react-router";
import { env } from "../config/env.server";

/** Small, single-purpose cookies: signed with SESSION_SECRET (rotating keys), httpOnly, SameSite=Lax, Secure on https. */
export function signedCookie(name: string, options: CookieOptions = {}) {
  return createCookie(name, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: env.secureCookies,
    secrets: env.sessionSecrets,
    ...options,
  });
}

// Checking a signature is a WebCrypto HMAC per cookie and request; the same value always checks the same way while
// the process runs (its secrets are fixed at start), so each verified value is remembered, within a bound.
const VERIFIED_MAX = 5_000;
const verified = new WeakMap<ReturnType<typeof createCookie>, Map<string, unknown>>();

function rawValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return null;
}

const currentKeyOnly = new Map<string, ReturnType<typeof createCookie>>();

/**
 * True when a cookie that verified was signed with a retired key (a later one in SESSION_SECRET): the response then
 * carries it re-signed with the current key, so a retired key can be dropped once its cookies have come back.
 */
export async function isSignedWithRetiredKey(
  cookie: ReturnType<typeof createCookie>,
  request: Request | string | null,
): Promise<boolean> {
  if (env.sessionSecrets.length < 2) return false;
  let twin = currentKeyOnly.get(cookie.name);
  if (!twin) {
    twin = createCookie(cookie.name, { secrets: env.sessionSecrets.slice(0, 1) });
    currentKeyOnly.set(cookie.name, twin);
  }
  return (await readCookie(twin, request)) === null;
}

/** Whether a response already sets the named cookie. */
export function setsCookie(response: Response, name: string): boolean {
  return response.headers.getSetCookie().some((cookie) => cookie.startsWith(`${name}=`));
}

/**
 * Reads a signed cookie from a request or from a Cookie header (servers answering before the framework); a tampered,
 * foreign or malformed value counts as absent.
 */
export async function readCookie<T>(
  cookie: ReturnType<typeof createCookie>,
  request: Request | string | null,
): Promise<T | null> {
  const header = typeof request === "string" || request === null ? request : request.headers.get("Cookie");
  const raw = header ? rawValue(header, cookie.name) : null;
  if (raw === null) return null;
  // Per cookie object: the same name with other secrets (isSignedWithRetiredKey's twin) checks differently.
  let values = verified.get(cookie);
  if (!values) {
    values = new Map();
    verified.set(cookie, values);
  }
  if (values.has(raw)) return values.get(raw) as T | null;
  let value: T | null;
  try {
    value = ((await cookie.parse(`${cookie.name}=${raw}`)) as T | null) ?? null;
  } catch {
    value = null;
  }
  if (values.size >= VERIFIED_MAX) values.delete(values.keys().next().value!);
  values.set(raw, value);
  return value;
}
