import { useId, type ReactNode } from "react";
import { useTranslation } from "../i18n/use-translation";
import { useLocale } from "../i18n/use-locale";

export type Series = { key: string; label: string; values: (number | null)[] };

const WIDTH = 600;
const HEIGHT = 160;

/**
 * Stages differ in more than hue in a chart too: over its colour each stage's bar carries a pattern, those of the
 * terms being learned after their underline in the reader (to learn solid, in progress dashed: stripes, needs review
 * wavy: dots), learned terms lines (plain text in the reader, ADR 106); known words (`ignored`) plain. The legend's
 * swatches carry the same patterns (statistics.css).
 */
const PATTERNS: Record<string, (mark: string) => ReactNode> = {
  inprogress: (mark) => <path className={mark} d="M-2 2 L2 -2 M0 8 L8 0 M6 10 L10 6" strokeWidth="2" />,
  needsreview: (mark) => <circle className={mark} cx="3" cy="3" r="1.4" />,
  learned: (mark) => <path className={mark} d="M0 3 H6" strokeWidth="1.6" />,
};
const PATTERN_SIZE: Record<string, number> = { inprogress: 8, needsreview: 6, learned: 6 };

/**
 * A bar chart drawn on the server as inline SVG, stacked when it has several series. The axis labels are HTML beside
 * the drawing, so they stay readable when the drawing shrinks on a phone; the numbers are in a table for screen
 * readers and for anyone who wants them.
 */
export function BarChart({
  title,
  summary,
  labels,
  series,
  max: fixedMax,
  percent = false,
}: {
  title: string;
  /** The text alternative: what the chart shows, in a sentence. */
  summary: string;
  labels: string[];
  series: Series[];
  /** A fixed top of the scale (100 for percentages); else the largest stack. */
  max?: number;
  /** Values are whole percents (0-100), shown in the locale's percent format (“42 %”, “%42”, “42%”). */
  percent?: boolean;
}) {
  const { t } = useTranslation("learning");
  const locale = useLocale();
  const numbers = new Intl.NumberFormat(locale, percent ? { style: "percent" } : {});
  const format = (value: number) => numbers.format(percent ? value / 100 : value);
  const id = useId().replace(/[^\w-]/g, "");
  const totals = labels.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = fixedMax ?? Math.max(1, ...totals);
  const slot = WIDTH / Math.max(labels.length, 1);
  const gap = Math.min(4, slot * 0.2);
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>
        <h2>{title}</h2>
      </figcaption>
      <p className="hint" id={`${id}-summary`}>
        {summary}
      </p>
      <div className="chart-plot">
        <span className="chart-scale" aria-hidden="true">
          <span>{format(max)}</span>
          <span>{format(0)}</span>
        </span>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-labelledby={`${id}-title ${id}-summary`}
        >
          {series.length > 1 ? (
            <defs>
              {series
                .filter((s) => PATTERNS[s.key])
                .map((s) => (
                  <pattern
                    key={s.key}
                    id={`${id}-${s.key}`}
                    patternUnits="userSpaceOnUse"
                    width={PATTERN_SIZE[s.key]}
                    height={PATTERN_SIZE[s.key]}
                  >
                    {PATTERNS[s.key]!(`chart-mark chart-mark-${s.key}`)}
                  </pattern>
                ))}
            </defs>
          ) : null}
          <line className="chart-grid" x1="0" x2={WIDTH} y1="0.5" y2="0.5" />
          <line className="chart-grid" x1="0" x2={WIDTH} y1={HEIGHT / 2} y2={HEIGHT / 2} />
          <line className="chart-axis" x1="0" x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
          {labels.map((label, i) => {
            let base = HEIGHT;
            return (
              <g key={label}>
                {series.map((s) => {
                  const value = s.values[i] ?? 0;
                  if (value <= 0) return null;
                  const height = (value / max) * HEIGHT;
                  base -= height;
                  const box = { x: i * slot + gap / 2, y: base, width: slot - gap, height };
                  const patterned = series.length > 1 && PATTERNS[s.key];
                  return (
                    <g key={s.key}>
                      <rect
                        className={`chart-bar chart-${s.key}${series.length > 1 ? " chart-stacked" : ""}`}
                        {...box}
                      />
                      {patterned ? <rect className="chart-pattern" fill={`url(#${id}-${s.key})`} {...box} /> : null}
                    </g>
                  );
                })}
              </g>
            );
          })}
        </svg>
      </div>
      <div className="chart-labels" aria-hidden="true">
        <span>{labels[0]}</span>
        <span>{labels.at(-1)}</span>
      </div>
      {series.length > 1 ? (
        <ul className="chart-legend" aria-hidden="true">
          {series.map((s) => (
            <li key={s.key}>
              <span className={`chart-swatch chart-${s.key}`} /> {s.label}
            </li>
          ))}
        </ul>
      ) : null}
      <details className="chart-numbers">
        <summary>{t("statistics.showNumbers")}</summary>
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t("statistics.period")}</th>
                {series.map((s) => (
                  <th scope="col" key={s.key}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((label, i) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  {series.map((s) => (
                    <td key={s.key}>{typeof s.values[i] === "number" ? format(s.values[i]) : "—"}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
