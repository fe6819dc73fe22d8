import { createHmac, timingSafeEqual } from "node:crypto";
import { createCookie, type Cookie, type CookieOptions } from "react-router";
import { env } from "../config/env.server";

/** The signature React Router's signed cookies carry: HMAC-SHA-256 of the encoded value, base64 without padding. */
const signature = (value: string, secret: string) =>
  createHmac("sha256", secret).update(value).digest("base64").replace(/=+$/, "");

function signedBy(value: string, hash: string, secret: string): boolean {
  const expected = Buffer.from(signature(value, secret));
  const given = Buffer.from(hash);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A cookie's value in a Cookie header as sent (the first of that name, as cookie parsers take it), or null. */
function rawValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return null;
}

function decoded(raw: string): string {
  const unquoted = raw.length > 1 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  try {
    return decodeURIComponent(unquoted);
  } catch {
    return unquoted;
  }
}

/**
 * React Router's signed cookie, written and read exactly as `createCookie(name, { secrets })` does (the same value,
 * the same signature, either reads the other's), with its HMAC computed synchronously by node:crypto. React Router
 * imports a WebCrypto key and signs or verifies on the thread pool for every cookie written or read: ~0.13 ms of CPU
 * and two asynchronous jobs each, against ~6 µs here; every grade writes a new learner-version cookie that the next
 * page then reads. The value is encoded and the attributes written by an unsigned cookie of React Router's.
 */
export function cookieSignedWith(name: string, options: CookieOptions, secrets: readonly string[]): Cookie {
  const plain = createCookie(name, { ...options, secrets: [] });
  return {
    get name() {
      return name;
    },
    get isSigned() {
      return true;
    },
    get expires() {
      return plain.expires;
    },
    async parse(cookieHeader) {
      if (!cookieHeader) return null;
      const raw = rawValue(cookieHeader, name);
      if (raw === null) return null;
      const value = decoded(raw);
      if (value === "") return "";
      const dot = value.lastIndexOf(".");
      if (dot < 0) return null;
      const [encoded, hash] = [value.slice(0, dot), value.slice(dot + 1)];
      if (!secrets.some((secret) => signedBy(encoded, hash, secret))) return null;
      return plain.parse(`${name}=${encodeURIComponent(encoded)}`);
    },
    async serialize(value, serializeOptions) {
      const header = await plain.serialize(value, serializeOptions);
      if (value === "") return header;
      const end = header.indexOf(";");
      const encoded = decodeURIComponent(header.slice(name.length + 1, end < 0 ? undefined : end));
      const signed = encodeURIComponent(`${encoded}.${signature(encoded, secrets[0]!)}`);
      return `${name}=${signed}${end < 0 ? "" : header.slice(end)}`;
    },
  };
}

/** Small, single-purpose cookies: signed with SESSION_SECRET (rotating keys), httpOnly, SameSite=Lax, Secure on https. */
export function signedCookie(name: string, options: CookieOptions = {}): Cookie {
  return cookieSignedWith(
    name,
    { path: "/", httpOnly: true, sameSite: "lax", secure: env.secureCookies, ...options },
    env.sessionSecrets,
  );
}

// The same value always checks the same way while the process runs (its secrets are fixed at start), so each verified
// value is remembered, within a bound: the signature and the decoding are not repeated on every request.
const VERIFIED_MAX = 5_000;
const verified = new WeakMap<Cookie, Map<string, unknown>>();

const currentKeyOnly = new Map<string, Cookie>();

/**
 * True when a cookie that verified was signed with a retired key (a later one in SESSION_SECRET): the response then
 * carries it re-signed with the current key, so a retired key can be dropped once its cookies have come back.
 */
export async function isSignedWithRetiredKey(cookie: Cookie, request: Request | string | null): Promise<boolean> {
  if (env.sessionSecrets.length < 2) return false;
  let twin = currentKeyOnly.get(cookie.name);
  if (!twin) {
    twin = cookieSignedWith(cookie.name, {}, env.sessionSecrets.slice(0, 1));
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
export async function readCookie<T>(cookie: Cookie, request: Request | string | null): Promise<T | null> {
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
