/** The application event fired when a script chunk fails to load. */
export const CHUNK_ERROR_EVENT = "polyglot:chunk-error";
const RELOADED_KEY = "polyglot:chunk-reload";

let recovering = false;

/** A navigation that will load its destination as a whole document takes over the recovery. */
export function recoveringByNavigation() {
  recovering = true;
}

/**
 * A deploy replaces hashed chunks, so a tab opened before it can ask for files that no longer exist. The failure is
 * reported as an application event, then the page reloads once to pick up the new build, unless a navigation to a
 * full document is already doing that.
 */
export function watchChunkLoading() {
  window.addEventListener("vite:preloadError", (event) => {
    const detail = { message: String((event as Event & { payload?: unknown }).payload ?? "chunk failed to load") };
    window.dispatchEvent(new CustomEvent(CHUNK_ERROR_EVENT, { detail }));
    // One reload a minute at most, so a chunk that stays missing cannot cause a reload loop.
    const lastReload = Number(sessionStorage.getItem(RELOADED_KEY) ?? 0);
    if (Date.now() - lastReload < 60_000) return;
    event.preventDefault();
    setTimeout(() => {
      if (recovering) return;
      sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
      window.location.reload();
    }, 100);
  });
}
