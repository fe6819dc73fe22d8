export type RetryOptions = {
  /** Attempts in total, the first one included. */
  attempts?: number;
  /** Delay before the second attempt; it doubles after each failure. */
  baseDelayMs?: number;
  /** Only errors for which repeating the call is safe are retried. */
  retryable?: (error: unknown) => boolean;
};

/** Calls `fn` up to 3 times with exponential backoff (200 ms, 400 ms) while its errors are retryable. */
export async function retry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { attempts = 3, baseDelayMs = 200, retryable = () => true } = options;
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      lastError = error;
      if (attempt === attempts || !retryable(error)) break;
      await new Promise((resolve) => setTimeout(resolve, baseDelayMs * 2 ** (attempt - 1)));
    }
  }
  throw lastError;
}
