/*
 * Polyglot's service worker (docs/decisions/065-offline-review.md): pages always come from the network; only when the
 * network fails does it answer from what the signed-in learner's device stored (app/learning/offline-device.client.ts fills
 * the cache): the offline review page for the review, else the translated offline page. Hashed assets are served from
 * the cache once stored. It never stores a page by itself, and in basic-HTML mode (the server marks such pages) it
 * unregisters itself.
 */
const CACHE = "polyglot-offline-v1";
/** Where the device module keeps the paths of the stored pages: `{ review, offline }`. */
const META = "/offline-meta.json";
/** The public folder's files a stored page asks for (app/learning/offline-device.client.ts stores them). */
const PUBLIC_FILES = ["/favicon.svg", "/favicon-32.png", "/apple-touch-icon.png", "/site.webmanifest"];
const REVIEW = /^\/(?:[a-z]{2}\/)?account\/review\/?$/;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // A form sent offline (sign-out, a setting) gets the offline page too, never the browser's error.
  if (request.mode === "navigate") return event.respondWith(page(request, url));
  if (request.method !== "GET") return;
  if (url.pathname.startsWith("/assets/")) event.respondWith(asset(request));
  else if (PUBLIC_FILES.includes(url.pathname)) event.respondWith(fetch(request).catch(() => storedCopy(request)));
});

/** A hashed asset never changes: the stored copy, else the network's (kept while a learner's offline cache exists). */
async function asset(request) {
  const stored = await caches.match(request);
  if (stored) return stored;
  const response = await fetch(request);
  if (response.ok && (await caches.has(CACHE))) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

/** The stored copy, else a network error as the browser would have had. */
async function storedCopy(request) {
  return (await caches.match(request)) ?? Response.error();
}

async function page(request, url) {
  try {
    const response = await fetch(request);
    // Basic HTML: the worker must not control such pages, so it leaves.
    if (response.headers.get("X-Basic-Mode") === "1") self.registration.unregister();
    return response;
  } catch (error) {
    const cache = await caches.open(CACHE);
    const meta = await cache.match(META);
    const paths = meta ? await meta.json() : {};
    const get = request.method === "GET";
    const stored = get && (await cache.match(url.origin + url.pathname));
    if (stored) return stored;
    if (get && paths.review && REVIEW.test(url.pathname)) return Response.redirect(paths.review, 303);
    const offline = paths.offline && (await cache.match(paths.offline));
    if (offline) return offline;
    throw error;
  }
}
