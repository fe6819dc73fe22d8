import type { PostHog } from "posthog-node";
import { env } from "../config/env.server";
import { log } from "../server/log.server";
import { onShutdown } from "../server/lifecycle.server";
import { retry } from "../server/retry";
import { signInEvent, type SignedInAccount } from "./sign-in-event";

const TRACK_DEADLINE_MS = 5_000;

let client: Promise<PostHog> | null = null;
/** posthog-node is loaded with the first event, not at start (it is used in production with POSTHOG_KEY only). */
function posthog(): Promise<PostHog> | null {
  if (!env.analyticsEnabled || !env.POSTHOG_KEY) return null;
  const key = env.POSTHOG_KEY;
  client ??= import("posthog-node").then(({ PostHog }) => {
    const created = new PostHog(key, {
      host: env.POSTHOG_HOST,
      flushAt: 1,
      flushInterval: 0,
      requestTimeout: 3_000,
      fetchRetryCount: 0,
    });
    onShutdown(() => created.shutdown(3_000));
    return created;
  });
  return client;
}

/**
 * After a successful sign-in: `registration_completed` for an account created today, `login_completed` otherwise.
 * Only in production with POSTHOG_KEY; a failure is logged and never breaks the sign-in. Callers do not wait for it:
 * it ends by itself within TRACK_DEADLINE_MS.
 */
export async function trackSignIn(account: SignedInAccount, now = new Date()): Promise<void> {
  const ph = await posthog();
  if (!ph) return;
  const event = signInEvent(account, now);
  const properties = { email: account.email, created_at: account.createdAt.toISOString() };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      retry(async () => {
        ph.identify({ distinctId: account.id, properties });
        ph.capture({ distinctId: account.id, event, properties: { $set: properties } });
        await ph.flush();
      }),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`not sent within ${TRACK_DEADLINE_MS} ms`)), TRACK_DEADLINE_MS);
      }),
    ]);
  } catch (error) {
    log.warn("analytics event not sent", { event, error });
  } finally {
    clearTimeout(timer);
  }
}

/** What the browser needs to report page views; null outside production. */
export function browserAnalytics(): { key: string; host: string } | null {
  if (!env.analyticsEnabled || !env.POSTHOG_KEY) return null;
  return { key: env.POSTHOG_KEY, host: env.POSTHOG_HOST ?? "https://eu.i.posthog.com" };
}
