/**
 * The desired retention a learner may choose (ADR 062): the probability of recalling a term when it comes due that the
 * scheduler aims for. Kept apart from the scheduler so the settings form reaches the browser without ts-fsrs.
 */
export const RETENTION = { min: 0.8, max: 0.97, default: 0.9 } as const;

/** The choices the settings offer: every hundredth from 0.80 to 0.97, as the form sends them ("0.80" … "0.97"). */
export const RETENTION_CHOICES = Array.from({ length: 18 }, (_, i) => (0.8 + i / 100).toFixed(2)) as [
  string,
  ...string[],
];

/** FSRS-6's default decay of the forgetting curve (its 21st parameter; tests/unit/learning/retention.test.ts checks it). */
export const DEFAULT_DECAY = 0.1542;

/**
 * How many times longer the intervals are at one desired retention than at another, by FSRS-6's forgetting curve with
 * the default decay: the interval to fall to a retention R is proportional to R^(−1/decay) − 1. The settings' sentence
 * on workload uses it (at 0.95 about 2.5 times shorter than at 0.90, at 0.80 about 3.3 times longer).
 */
export function intervalRatio(retention: number, base: number = RETENTION.default): number {
  return (retention ** (-1 / DEFAULT_DECAY) - 1) / (base ** (-1 / DEFAULT_DECAY) - 1);
}
