import type { IncomingMessage, ServerResponse } from "node:http";

/** Writes held while the app starts, at most; more go on at once (and are answered 503 while it has not started). */
export const EARLY_WRITES_MAX = 16;
/** How long a write waits for the start before it goes on (and is answered 503 if the app has still not started). */
export const EARLY_WRITE_WAIT_MS = 10_000;

type Options = {
  /** True once the app has started (database open, shipped data loaded). */
  started: () => boolean;
  /** Resolves when the app has started. */
  whenStarted: () => Promise<void>;
  /** Told when a write starts to wait. */
  waits: (req: IncomingMessage) => void;
  /** Told how long a write waited and whether the app had started by then. */
  waited: (req: IncomingMessage, ms: number, started: boolean) => void;
  max?: number;
  waitMs?: number;
};

/**
 * A write (any method but GET and HEAD) that arrives before the app has started waits for the start here, before
 * admission: it holds no working slot and its body is not read meanwhile. A few wait (`max`), each for a while
 * (`waitMs`); then, started or not, the request goes on its way, where a database that is still not ready answers it
 * with the translated 503 page and Retry-After (decision 016). Reads go on at once, as before.
 */
export function earlyWrites({
  started,
  whenStarted,
  waits,
  waited,
  max = EARLY_WRITES_MAX,
  waitMs = EARLY_WRITE_WAIT_MS,
}: Options) {
  let waiting = 0;
  return function hold(req: IncomingMessage, res: ServerResponse, go: () => void): void {
    if (started() || req.method === "GET" || req.method === "HEAD" || waiting >= max) return go();
    waiting += 1;
    waits(req);
    const since = Date.now();
    let settled = false;
    const settle = (goOn: boolean) => {
      if (settled) return;
      settled = true;
      waiting -= 1;
      clearTimeout(timer);
      res.off("close", left);
      if (!goOn) return;
      waited(req, Date.now() - since, started());
      go();
    };
    // The client gave up: its place is free, nothing is sent.
    const left = () => settle(false);
    const timer = setTimeout(() => settle(true), waitMs);
    res.once("close", left);
    void whenStarted().then(() => settle(true));
  };
}
