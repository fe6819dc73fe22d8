/** The events that tell the learner is about to act: a pointer over the page, a key, a focus, a touch. */
const EVENTS = ["pointerover", "pointerdown", "keydown", "focusin", "touchstart"] as const;
/** How long after it is asked for the callback runs by itself, when the learner has not moved sooner. */
const QUIET_MS = 10_000;

/**
 * Runs `callback` once, at the learner's first move toward an action or, failing that, when the page has long been
 * quiet: for what the next page needs but the first one does not (the whole stylesheet, the translation files' list),
 * loaded neither during start-up nor as late as the next click. Returns what cancels it.
 */
export function atFirstMove(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const stop = () => {
    done = true;
    for (const name of EVENTS) window.removeEventListener(name, run, true);
    clearTimeout(timer);
  };
  const run = () => {
    if (done) return;
    stop();
    callback();
  };
  for (const name of EVENTS) window.addEventListener(name, run, { capture: true, passive: true });
  timer = setTimeout(() => (window.requestIdleCallback ?? setTimeout)(run), QUIET_MS);
  return stop;
}
