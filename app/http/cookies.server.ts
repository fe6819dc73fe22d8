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
const verified = new Map<string, unknown>();

function rawValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return null;
}

/** Reads a signed cookie; a tampered, foreign or malformed value counts as absent. */
export async function readCookie<T>(cookie: ReturnType<typeof createCookie>, request: Request): Promise<T | null> {
  const header = request.headers.get("Cookie");
  const raw = header ? rawValue(header, cookie.name) : null;
  if (raw === null) return null;
  const key = `${cookie.name}=${raw}`;
  if (verified.has(key)) return verified.get(key) as T | null;
  let value: T | null;
  try {
    value = ((await cookie.parse(key)) as T | null) ?? null;
  } catch {
    value = null;
  }
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  verified.set(key, value);
  return value;
}
