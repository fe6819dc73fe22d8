/** The ranges a learner may choose for each daily limit; the settings form, the welcome and their validation share them. */
export const LIMITS = { newPerDay: { min: 0, max: 1000 }, reviewsPerDay: { min: 0, max: 10000 } } as const;

export type DailyLimit = keyof typeof LIMITS;

/**
 * The daily goal in minutes of review (ADR 119): the choices the welcome and Settings offer, and the bounds of the
 * learner's own number.
 */
export const DAILY_GOAL = { min: 1, max: 120, default: 10, choices: [5, 10, 15, 20] } as const;

/** A goal as a form sent it ("own" with its number in `goalOwn`): whole minutes within bounds, or null. */
export function parseDailyGoal(choice: string, own: string): number | null {
  const value = (choice === "own" ? own : choice).trim();
  if (!/^\d{1,3}$/.test(value)) return null;
  const minutes = Number(value);
  return minutes >= DAILY_GOAL.min && minutes <= DAILY_GOAL.max ? minutes : null;
}
