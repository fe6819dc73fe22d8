import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { holdsSignInToken } from "./token-pages";

type PostHogClient = { capture: (event: string, properties?: Record<string, unknown>) => void };

/**
 * posthog-js page views, loaded on demand and only when the server says analytics are on (production). Never on a page
 * holding a sign-in token (the server gives no configuration there either), not even when arriving from another page.
 */
export function PageViews({ config }: { config: { key: string; host: string } | null }) {
  const { pathname } = useLocation();
  const client = useRef<Promise<PostHogClient> | null>(null);
  useEffect(() => {
    if (!config || holdsSignInToken(pathname)) return;
    client.current ??= import("posthog-js").then(({ default: posthog }) => {
      posthog.init(config.key, { api_host: config.host, capture_pageview: false, persistence: "memory" });
      return posthog;
    });
    void client.current.then((posthog) =>
      posthog.capture("$pageview", { $current_url: window.location.origin + pathname }),
    );
  }, [config, pathname]);
  return null;
}
