import { and, count, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { rateLimitEvents } from "./auth.schema";

export type RateLimitRule = { key: string; limit: number; windowMs: number };

/** The longest window any rule counts over: older events count for nothing and housekeeping deletes them. */
export const LONGEST_RATE_LIMIT_WINDOW_MS = 3_600_000;

/** How long an address waits before it may ask for another sign-in link. */
export const RESEND_WAIT_MS = 60_000;

/** How often sign-in links may be requested: per address at most one a minute and five an hour; per client IP 20 an hour. */
export function signInRules(email: string, clientIp: string | null): RateLimitRule[] {
  const rules: RateLimitRule[] = [
    { key: `signin:email:${email}`, limit: 1, windowMs: RESEND_WAIT_MS },
    { key: `signin:email:${email}`, limit: 5, windowMs: LONGEST_RATE_LIMIT_WINDOW_MS },
  ];
  if (clientIp) rules.push({ key: `signin:ip:${clientIp}`, limit: 20, windowMs: LONGEST_RATE_LIMIT_WINDOW_MS });
  return rules;
}

/**
 * Counts one event against every rule, or none when any rule is already at its limit. The counters live in the
 * database and each key is locked for the check, so every server instance sees the same numbers.
 */
export async function consumeRateLimit(db: Database, rules: RateLimitRule[], now = new Date()): Promise<boolean> {
  const keys = [...new Set(rules.map((rule) => rule.key))].sort();
  return db.transaction(async (tx) => {
    for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    for (const rule of rules) {
      const since = new Date(now.getTime() - rule.windowMs);
      const [row] = await tx
        .select({ n: count() })
        .from(rateLimitEvents)
        .where(and(eq(rateLimitEvents.key, rule.key), gt(rateLimitEvents.createdAt, since)));
      if ((row?.n ?? 0) >= rule.limit) return false;
    }
    const longest = Math.max(...rules.map((rule) => rule.windowMs));
    for (const key of keys) {
      await tx
        .delete(rateLimitEvents)
        .where(and(eq(rateLimitEvents.key, key), lt(rateLimitEvents.createdAt, new Date(now.getTime() - longest))));
      await tx.insert(rateLimitEvents).values({ key, createdAt: now });
    }
    return true;
  });
}

/** Takes back the events `consumeRateLimit` counted at `now` for these rules, e.g. when the link could not be sent. */
export async function releaseRateLimit(db: Database, rules: RateLimitRule[], now: Date): Promise<void> {
  const keys = [...new Set(rules.map((rule) => rule.key))];
  if (keys.length === 0) return;
  await db.delete(rateLimitEvents).where(and(inArray(rateLimitEvents.key, keys), eq(rateLimitEvents.createdAt, now)));
}
