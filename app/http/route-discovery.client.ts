/**
 * React Router learns the routes of the links a page shows by fetching `/__manifest` (lazy route discovery). Offline,
 * every such fetch fails and React Router logs "Failed to fetch manifest patches" for each page the learner opens. The
 * discovery a page starts by itself (it carries no abort signal) waits for the connection instead and is sent then,
 * so the routes are still learnt. A navigation's own discovery carries a signal and fails as before: React Router then
 * loads the document, which the service worker answers offline.
 */
export function deferRouteDiscoveryWhileOffline() {
  const fetchNow = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (init?.signal || !url.includes("/__manifest?")) return fetchNow(input, init);
    return fetchNow(input, init).catch((error: unknown) => {
      if (navigator.onLine) throw error;
      return new Promise<Response>((resolve, reject) =>
        window.addEventListener("online", () => fetchNow(input, init).then(resolve, reject), { once: true }),
      );
    });
  };
}
