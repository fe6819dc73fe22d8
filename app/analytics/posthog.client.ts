import type { AnalyticsConfig } from "./page-views";
import { holdsSignInToken } from "./token-pages";

type PostHogClient = { capture: (event: string, properties?: Record<string, unknown>) => void };

let client: Promise<PostHogClient> | null = null;

/**
 * Sends a page view to PostHog, started on the first one. Never on a page holding a sign-in token (the server gives no
 * configuration there either), not even when arriving from another page.
 */
export function pageView(config: AnalyticsConfig, pathname: string): void {
  if (holdsSignInToken(pathname)) return;
  client ??= import("posthog-js").then(({ default: posthog }) => {
    posthog.init(config.key, { api_host: config.host, capture_pageview: false, persistence: "memory" });
    return posthog;
  });
  void client.then((posthog) => posthog.capture("$pageview", { $current_url: window.location.origin + pathname }));
}
