import type { Locale } from "../i18n/locales";

/**
 * A signed-in learner's device keeps today's review for offline use (ADR 065). The root loads this module once the page
 * is interactive, for signed-in learners only, so no page's first load carries it. It catches sign-out at once (the
 * device's grades are sent and the device cleared first, even before the rest has loaded) and loads the module that
 * registers the service worker and stores the cards when the browser is idle. Returns how to stop both.
 */
export function bootOfflineReview(locale: Locale): () => void {
  const device = () => import("./offline-device.client");
  const start = () =>
    void device()
      .then(({ startOfflineDevice }) => startOfflineDevice(locale))
      .catch(() => {});
  const signOut = (event: SubmitEvent) => {
    const form = event.target as HTMLFormElement;
    if (form.dataset.offlineChecked || !/\/logout$/.test(new URL(form.action, location.href).pathname)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const submitter = event.submitter;
    void device()
      .then(({ signOutWith }) => signOutWith(form, submitter))
      .catch(() => HTMLFormElement.prototype.submit.call(form));
  };
  window.addEventListener("submit", signOut, true);
  const stop = () => window.removeEventListener("submit", signOut, true);
  if ("requestIdleCallback" in window) {
    const id = window.requestIdleCallback(start, { timeout: 3_000 });
    return () => {
      stop();
      window.cancelIdleCallback(id);
    };
  }
  const timer = setTimeout(start, 1_000);
  return () => {
    stop();
    clearTimeout(timer);
  };
}
