import { env } from "../config/env.server";
import { readCookie, signedCookie } from "../http/cookies.server";
import { RESEND_WAIT_MS } from "./rate-limit.server";

/** Where sign-in links go: e-mail (SMTP or Supabase), or, for local development without SMTP_URL, the server log. */
export const linkDelivery: "mail" | "log" = env.authProvider === "local" && !env.SMTP_URL ? "log" : "mail";

/** Remembers, for the hour a link lives, which address was sent a link and when: the sign-in page keeps saying so. */
export const SIGN_IN_SENT_COOKIE = "sign-in-sent";
const sentCookie = signedCookie(SIGN_IN_SENT_COOKIE, { maxAge: 60 * 60 });

type Sent = { email: string; at: number };

export function sentHeader(email: string, now = Date.now()): Promise<string> {
  return sentCookie.serialize({ email, at: now } satisfies Sent);
}

/** The address a link went to and how many seconds remain before another may be requested; null when none was sent. */
export async function sentNotice(
  request: Request,
  now = Date.now(),
): Promise<{ email: string; waitSeconds: number } | null> {
  const sent = await readCookie<Sent>(sentCookie, request);
  if (typeof sent?.email !== "string" || typeof sent.at !== "number") return null;
  return { email: sent.email, waitSeconds: Math.max(0, Math.ceil((sent.at + RESEND_WAIT_MS - now) / 1000)) };
}
