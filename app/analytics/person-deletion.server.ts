import { env } from "../config/env.server";
import { onShutdown } from "../server/lifecycle.server";
import { log } from "../server/log.server";
import { retry } from "../server/retry";

/** One attempt's deadline: the provider's answer is awaited no longer than this. */
const ATTEMPT_TIMEOUT_MS = 5_000;
const DEFAULT_API_HOST = "https://eu.posthog.com";

/** Calls still under way: a graceful stop waits for them (each ends by itself within its attempts' deadlines). */
const pending = new Set<Promise<void>>();
onShutdown(() => analyticsDeletionsSettled());

export type PersonDeletionConfig = { apiHost: string; projectId: string; personalApiKey: string };

/** The PostHog private API this installation deletes persons through; null when not configured. */
export function personDeletionConfig(): PersonDeletionConfig | null {
  if (!env.POSTHOG_PERSONAL_API_KEY || !env.POSTHOG_PROJECT_ID) return null;
  return {
    apiHost: env.POSTHOG_API_HOST ?? DEFAULT_API_HOST,
    projectId: env.POSTHOG_PROJECT_ID,
    personalApiKey: env.POSTHOG_PERSONAL_API_KEY,
  };
}

class ProviderAnswer extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`PostHog answered ${status}`);
    this.status = status;
  }
}

/**
 * Deletes the analytics person of `distinctId` (the learner's id, which sign-in events are captured with) and queues
 * the deletion of all their events, through PostHog's bulk-delete endpoint of persons
 * (`POST /api/projects/:project_id/persons/bulk_delete/`, a personal API key with the `person:write` scope, body
 * `{"distinct_ids": [...], "delete_events": true}`). Each attempt has a deadline; network errors, 429 and 5xx are
 * retried. Throws when it did not succeed.
 */
export async function deleteAnalyticsPerson(config: PersonDeletionConfig, distinctId: string): Promise<void> {
  const url = new URL(
    `/api/projects/${encodeURIComponent(config.projectId)}/persons/bulk_delete/`,
    config.apiHost.replace(/\/+$/, "") + "/",
  );
  await retry(
    async () => {
      const response = await fetch(url, {
        method: "POST",
        headers: { Authorization: `Bearer ${config.personalApiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ distinct_ids: [distinctId], delete_events: true }),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (!response.ok) throw new ProviderAnswer(response.status);
    },
    { retryable: (error) => !(error instanceof ProviderAnswer) || error.status === 429 || error.status >= 500 },
  );
}

/**
 * After an account is deleted: asks the analytics provider to delete the learner's person and events, off the request
 * path (the deletion never waits for the provider). A failure is logged with the learner's id (a random id, no e-mail
 * address) so the operator can repeat it by hand; see docs/operations.md.
 */
export function forgetAnalyticsPerson(distinctId: string): void {
  const config = personDeletionConfig();
  if (!config) return;
  const call = deleteAnalyticsPerson(config, distinctId).then(
    () => log.info("analytics person deleted", { provider: "posthog" }),
    (error: unknown) =>
      log.error("analytics person not deleted", {
        provider: "posthog",
        distinctId,
        error: error instanceof Error ? error.message : String(error),
      }),
  );
  pending.add(call);
  void call.finally(() => pending.delete(call));
}

/** Resolves when every deletion under way has ended (each is bounded by its attempts' deadlines). */
export async function analyticsDeletionsSettled(): Promise<void> {
  await Promise.all([...pending]);
}
