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

const currentKeyOnly = new Map<string, ReturnType<typeof createCookie>>();

/**
 * True when a cookie that verified was signed with a retired key (a later one in SESSION_SECRET): the response then
 * carries it re-signed with the current key, so a retired key can be dropped once its cookies have come back.
 */
export async function isSignedWithRetiredKey(cookie: ReturnType<typeof createCookie>, request: Request): Promise<boolean> {
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

/** Reads a signed cookie; a tampered, foreign or malformed value counts as absent. */
export async function readCookie<T>(cookie: ReturnType<typeof createCookie>, request: Request): Promise<T | null> {
  try {
    return ((await cookie.parse(request.headers.get("Cookie"))) as T | null) ?? null;
  } catch {
    return null;
  }
}
