import { useEffect } from "react";
import { useLocation } from "react-router";

export type AnalyticsConfig = { key: string; host: string };

/**
 * posthog-js page views, loaded on demand and only when the server says analytics are on (production): the code that
 * sends them (posthog.client.ts) is a file of its own, loaded after hydration, so a page without analytics never
 * loads it.
 */
export function PageViews({ config }: { config: AnalyticsConfig | null }) {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!config) return;
    void import("./posthog.client").then(({ pageView }) => pageView(config, pathname)).catch(() => {});
  }, [config, pathname]);
  return null;
}
