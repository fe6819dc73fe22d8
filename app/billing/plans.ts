/** The paid plan and its billing periods. Free needs no plan: everything built today is free for everyone. */
export const PLANS = ["supporter"] as const;
export type Plan = (typeof PLANS)[number];
export const PERIODS = ["monthly", "yearly"] as const;
export type Period = (typeof PERIODS)[number];

/** What a learner's plan looks like on their account. */
export const PLAN_STATUSES = ["active", "past_due", "canceling", "ended", "pending"] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const isPlan = (value: unknown): value is Plan => (PLANS as readonly unknown[]).includes(value);
export const isPeriod = (value: unknown): value is Period => (PERIODS as readonly unknown[]).includes(value);

/** An amount in the currency's minor unit, in the interface locale: 400 eur in de is "4,00 €". */
export function formatMoney(locale: string, amount: number, currency: string): string {
  const format = new Intl.NumberFormat(locale, { style: "currency", currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

/** A day in the interface locale, e.g. "23 December 2026". */
export function formatDay(locale: string, date: Date | string | number): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(date));
}
