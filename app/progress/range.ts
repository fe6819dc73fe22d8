/** The periods the statistics page offers, in days. */
export const RANGES = [30, 90] as const;
export type Range = (typeof RANGES)[number];

/** `?days=` of the statistics page: absent means 30; anything but 30 or 90 is refused (null). */
export function parseRange(value: string | null): Range | null {
  if (value === null) return 30;
  return /^\d+$/.test(value) && (RANGES as readonly number[]).includes(Number(value)) ? (Number(value) as Range) : null;
}
