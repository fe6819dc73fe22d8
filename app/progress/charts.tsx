import { useId } from "react";
import { useTranslation } from "react-i18next";

export type Series = { key: string; label: string; values: (number | null)[] };

const WIDTH = 600;
const HEIGHT = 160;

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
  unit = "",
}: {
  title: string;
  /** The text alternative: what the chart shows, in a sentence. */
  summary: string;
  labels: string[];
  series: Series[];
  /** A fixed top of the scale (100 for percentages); else the largest stack. */
  max?: number;
  unit?: string;
}) {
  const { t } = useTranslation("learning");
  const id = useId();
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
          <span>
            {max}
            {unit}
          </span>
          <span>0</span>
        </span>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-labelledby={`${id}-title ${id}-summary`}
        >
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
                  return (
                    <rect
                      key={s.key}
                      className={`chart-bar chart-${s.key}${series.length > 1 ? " chart-stacked" : ""}`}
                      x={i * slot + gap / 2}
                      y={base}
                      width={slot - gap}
                      height={height}
                    />
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
                    <td key={s.key}>{s.values[i] === null ? "—" : `${s.values[i]}${unit}`}</td>
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
