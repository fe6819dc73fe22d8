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

/** Reads a signed cookie; a tampered, foreign or malformed value counts as absent. */
export async function readCookie<T>(cookie: ReturnType<typeof createCookie>, request: Request): Promise<T | null> {
  try {
    return ((await cookie.parse(request.headers.get("Cookie"))) as T | null) ?? null;
  } catch {
    return null;
  }
}
