import { useTranslation } from "../i18n/use-translation";
import { Link } from "react-router";
import type { ReactNode } from "react";
import { useLocale } from "../i18n/use-locale";
import { WORD_STAGES, type TextStats, type WordStage } from "./match";

export function WordStageBadge({ stage, id }: { stage: WordStage; id?: string }) {
  const { t } = useTranslation("reading");
  return (
    <span className={`word-stage word w-${stage}`} id={id}>
      {t(`stages.${stage}`)}
    </span>
  );
}

/**
 * What each colour and underline means: colour is never the only sign of a stage. Words name their stage through it.
 * Learned and known words are plain text (ADR 106): the legend says so in words too.
 */
export function StageLegend() {
  const { t } = useTranslation("reading");
  return (
    <ul className="reader-legend" aria-label={t("legend")}>
      {WORD_STAGES.map((stage) => (
        <li key={stage}>
          <WordStageBadge stage={stage} id={`legend-${stage}`} />
        </li>
      ))}
      <li className="hint">{t("legendPlain")}</li>
    </ul>
  );
}

/** Running words by what the learner knows, with their shares of the text. */
export function TextStatsLine({ stats }: { stats: TextStats }) {
  const { t } = useTranslation("reading");
  const percent = new Intl.NumberFormat(useLocale(), { style: "percent" });
  const share = (n: number) => percent.format(stats.words ? n / stats.words : 0);
  return (
    <p className="text-stats">
      {t("stats.words", { count: stats.words })} ·{" "}
      {t("stats.unknown", { count: stats.unknown, share: share(stats.unknown) })} ·{" "}
      {t("stats.known", { count: stats.known, share: share(stats.known) })}
    </p>
  );
}

/** The pages of a text; `next`, when given, stands in for the link to the next page (a form that marks words known). */
export function Pager({
  page,
  pages,
  link,
  next,
}: {
  page: number;
  pages: number;
  link: (page: number) => string;
  next?: ReactNode;
}) {
  const { t } = useTranslation("reading");
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={t("pages")}>
      {page > 1 ? (
        <Link to={link(page - 1)} rel="prev">
          {t("previous")}
        </Link>
      ) : null}
      <span>{t("page", { page, pages })}</span>
      {page < pages
        ? (next ?? (
            <Link to={link(page + 1)} rel="next">
              {t("next")}
            </Link>
          ))
        : null}
    </nav>
  );
}
