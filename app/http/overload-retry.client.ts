/** How often a refused `.data` request is sent again before React Router shows its error. */
const RETRIES = 3;
/** Longer waits are not a busy server's (the app's own 503 asks for 10 s): their error shows at once, as before. */
const MAX_WAIT_S = 5;

const wait = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/**
 * A busy server answers at once with 503 and Retry-After instead of letting requests queue (load shedding, server.ts).
 * React Router fetches a page's data (`.data`, also for forms) with window.fetch and shows an error for a 503; here
 * such a request is sent again after the time asked for, a few times, before that happens. A refused request was
 * never worked on, so sending a form again is safe.
 */
export function retryRefusedData() {
  const fetchOnce = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    let response = await fetchOnce(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (!/\.data(?:\?|$)/.test(url) || input instanceof Request) return response;
    for (let attempt = 0; attempt < RETRIES && response.status === 503; attempt++) {
      const seconds = Number(response.headers.get("Retry-After"));
      if (!(seconds >= 0 && seconds <= MAX_WAIT_S)) break;
      await wait(seconds * 1000, init?.signal);
      response = await fetchOnce(input, init);
    }
    return response;
  };
}
