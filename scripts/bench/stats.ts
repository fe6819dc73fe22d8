// Statistics and formatting

export type Stats = { n: number; p50: number; p95: number; p99: number; mean: number; min: number; max: number };

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    mean: round(sorted.reduce((sum, x) => sum + x, 0) / Math.max(1, sorted.length)),
    min: round(sorted[0] ?? Number.NaN),
    max: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const int = (n: number) => Math.round(n).toLocaleString("en-US");
export const bytes = (n: number) => `${int(n)} B`;
export const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
export const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 2 : 1)} ms` : "—");
