import { onShutdown } from "./lifecycle.server";

/**
 * Runs a job off the request path and never in the start-up path: first after `firstAfterMs`, then `againAfterMs`
 * after each round ends for as long as the round answers true (one round at a time, never overlapping). A round
 * handles its own failures. The timers do not hold the process open and stop at shutdown; the returned function stops
 * them sooner.
 */
export function scheduleRounds(
  round: () => Promise<boolean>,
  { firstAfterMs, againAfterMs }: { firstAfterMs: number; againAfterMs: number },
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  async function next() {
    const again = await round();
    if (!stopped && again) (timer = setTimeout(() => void next(), againAfterMs)).unref();
  }
  (timer = setTimeout(() => void next(), firstAfterMs)).unref();
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  onShutdown(async () => stop());
  return stop;
}
