/** The ranges a learner may choose for each daily limit; the settings form, the welcome and their validation share them. */
export const LIMITS = { newPerDay: { min: 0, max: 1000 }, reviewsPerDay: { min: 0, max: 10000 } } as const;

export type DailyLimit = keyof typeof LIMITS;
