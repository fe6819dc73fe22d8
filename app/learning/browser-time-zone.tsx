import { useEffect } from "react";
import { currentZoneName } from "./renamed-zones";

/** The browser's zone under IANA's current name, where it has one. */
export const browserTimeZone = (): string | null => {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone ? currentZoneName(zone) : null;
  } catch {
    return null;
  }
};

/**
 * Sends the browser's zone once when the learner has none saved, so their days end at their own midnight. A plain
 * request, not a fetcher: a fetcher's action makes the router revalidate, which raced a link the learner had just
 * clicked; the zone applies from the next page on. A module of its own: the day panel shows it on the landing page,
 * whose first load should not carry the settings form.
 */
export function BrowserTimeZone({ action }: { action: string }) {
  useEffect(() => {
    const zone = browserTimeZone();
    if (!zone) return;
    const body = new URLSearchParams({ intent: "browserTimeZone", timeZone: zone });
    fetch(action, { method: "POST", body, credentials: "same-origin" }).catch(() => {
      // Offline or refused: the zone is sent again on the next home page.
    });
  }, [action]);
  return null;
}
