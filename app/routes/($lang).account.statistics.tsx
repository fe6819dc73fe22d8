import { useTranslation } from "../i18n/use-translation";
import { data, Form } from "react-router";
import type { Route } from "./+types/($lang).account.statistics";
import { getDatabase } from "../db/db.server";
import { requestLocale } from "../i18n/i18n.server";
import { requireLearner } from "../learning/learner.server";
import { dayMemory, learnerDayOf } from "../learning/daily.server";
import { DEFAULT_TIME_ZONE } from "../learning/time-zone";
import { STAGES } from "../learning/vocabulary";
import { BarChart } from "../progress/charts";
import { parseRange, RANGES } from "../progress/range";
import { learnerStatistics } from "../progress/statistics.server";
import { GOAL_STREAK_FROM } from "../learning/daily-goal.server";
import { knownByDay } from "../progress/known.server";
import { studyLanguageName } from "../learning/study-language";
import { readFit } from "../learning/fsrs-fit.server";
import type { StalenessHandle } from "../edge/staleness";
import type { PageHandle } from "../ui/seo";
import { SubmitWithoutScript, useSubmitOnChange } from "../ui/submit-on-change";

/**
 * Kept in memory for the learner until their next write or the end of their day (the charts and the forecast end
 * today); the page shows nothing else that changes by itself.
 */
export const handle: PageHandle & StalenessHandle<Awaited<ReturnType<typeof loader>>> = {
  title: "titles.statistics",
  staleness: { dependsOn: ["learner"], changesAt: ({ dayEnds }) => [dayEnds], keptForLearner: true },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, owner } = requireLearner(context);
  const range = parseRange(new URL(request.url).searchParams.get("days"));
  if (range === null) throw data(null, { status: 400 });
  const db = await getDatabase();
  // The learner's zone and settings from their day, which the header's count reads too (from memory between writes).
  const { settings, day } = await learnerDayOf(context, db, owner, dayMemory(request, user));
  const timeZone = settings.timeZone ?? DEFAULT_TIME_ZONE;
  const [statistics, fit, known] = await Promise.all([
    learnerStatistics(db, user.id, timeZone, range, undefined, settings.dailyGoalMinutes),
    readFit(db, user.id),
    knownByDay(db, owner, timeZone, range),
  ]);
  return {
    range,
    known,
    languageName: studyLanguageName(owner.language, requestLocale(context)),
    dayEnds: day.end,
    goalMinutes: settings.dailyGoalMinutes,
    goalRuleFrom: GOAL_STREAK_FROM,
    locale: requestLocale(context),
    ...statistics,
    scheduler: {
      retention: settings.desiredRetention,
      fit:
        fit?.parameters && fit.defaultLogLoss !== null && fit.fittedLogLoss !== null
          ? {
              at: fit.fittedAt.toISOString(),
              reviews: fit.reviews,
              defaults: { logLoss: fit.defaultLogLoss, rmse: fit.defaultRmse ?? 0 },
              fitted: { logLoss: fit.fittedLogLoss, rmse: fit.fittedRmse ?? 0 },
            }
          : null,
    },
  };
}

/** "23 Nov" in the interface language; days are calendar days, so they are formatted in UTC. */
function dayLabel(locale: string) {
  const format = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", timeZone: "UTC" });
  return (day: string) => format.format(new Date(`${day}T00:00:00Z`));
}

export default function StatisticsPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("learning");
  const { range, locale, streak, reviewsPerDay, forecast, retention, stages, scheduler, known } = loaderData;
  const label = dayLabel(locale);
  const percent = new Intl.NumberFormat(locale, { style: "percent" });
  const total = reviewsPerDay.reduce((sum, d) => sum + d.reviews, 0);
  const busiest = reviewsPerDay.reduce((best, d) => (d.reviews > best.reviews ? d : best), reviewsPerDay[0]!);
  const dueSoon = forecast.reduce((sum, d) => sum + d.due, 0);
  const measured = retention.filter((w) => w.percent !== null);
  const passed = measured.reduce((sum, w) => sum + w.passed, 0);
  const graded = measured.reduce((sum, w) => sum + w.reviews, 0);
  const latest = stages.at(-1)!;
  const knownNow = known.at(-1)!;
  const language = loaderData.languageName;
  const submitOnChange = useSubmitOnChange({ preventScrollReset: true });
  return (
    <section className="statistics">
      <h1>{t("common:titles.statistics")}</h1>
      <p className="lead streak">{t("statistics.streak", { count: streak })}</p>
      <p className="hint streak-rule">
        {t("goal.streakRule", {
          count: loaderData.goalMinutes,
          date: ruleDate(loaderData.goalRuleFrom, i18n.language),
        })}
      </p>
      <p className="lead known-count">{t("known.total", { count: knownNow.total, language })}</p>
      <Form method="get" className="inline-form">
        <label htmlFor="days">{t("statistics.rangeLabel")}</label>
        <select id="days" name="days" defaultValue={String(range)} key={range} onChange={submitOnChange}>
          {RANGES.map((days) => (
            <option key={days} value={days}>
              {t("statistics.range", { count: days })}
            </option>
          ))}
        </select>
        <SubmitWithoutScript className="button button-secondary">{t("statistics.show")}</SubmitWithoutScript>
      </Form>

      <BarChart
        title={t("statistics.reviewsTitle", { count: range })}
        summary={
          total
            ? t("statistics.reviewsSummary", { count: total, most: busiest.reviews, day: label(busiest.day) })
            : t("statistics.noReviews")
        }
        labels={reviewsPerDay.map((d) => label(d.day))}
        series={[{ key: "reviews", label: t("statistics.reviews"), values: reviewsPerDay.map((d) => d.reviews) }]}
      />
      <BarChart
        title={t("statistics.knownTitle", { language })}
        summary={t("statistics.knownSummary", {
          count: knownNow.total,
          gained: knownNow.total - known[0]!.total,
          words: knownNow.words,
          learned: knownNow.learned,
        })}
        labels={known.map((d) => label(d.day))}
        series={[
          { key: "ignored", label: t("known.words"), values: known.map((d) => d.words) },
          { key: "learned", label: t("known.learned"), values: known.map((d) => d.learned) },
        ]}
      />
      <BarChart
        title={t("statistics.forecastTitle")}
        summary={t("statistics.forecastSummary", { count: dueSoon, today: forecast[0]!.due })}
        labels={forecast.map((d) => label(d.day))}
        series={[{ key: "due", label: t("statistics.due"), values: forecast.map((d) => d.due) }]}
      />
      <BarChart
        title={t("statistics.retentionTitle")}
        summary={
          graded
            ? t("statistics.retentionSummary", { percent: percent.format(passed / graded), count: graded })
            : t("statistics.noReviews")
        }
        labels={retention.map((w) => t("statistics.weekOf", { day: label(w.week) }))}
        series={[{ key: "retention", label: t("statistics.retention"), values: retention.map((w) => w.percent) }]}
        max={100}
        percent
      />
      <BarChart
        title={t("statistics.stagesTitle")}
        summary={t("statistics.stagesSummary", {
          tolearn: latest.tolearn,
          inprogress: latest.inprogress,
          needsreview: latest.needsreview,
          learned: latest.learned,
        })}
        labels={stages.map((d) => label(d.day))}
        series={STAGES.map((stage) => ({
          key: stage,
          label: t(`stages.${stage}`),
          values: stages.map((d) => d[stage]),
        }))}
      />
      <SchedulerFit locale={locale} {...scheduler} />
    </section>
  );
}

/**
 * Which parameters schedule the learner's reviews and, once fitted to their log, how well the defaults and their own
 * predict that log: log loss and RMSE over bins as fsrs-rs evaluates them (lower is better).
 */
function SchedulerFit({
  locale,
  retention,
  fit,
}: {
  locale: string;
  retention: number;
  fit: {
    at: string;
    reviews: number;
    defaults: { logLoss: number; rmse: number };
    fitted: { logLoss: number; rmse: number };
  } | null;
}) {
  const { t } = useTranslation("learning");
  const figure = new Intl.NumberFormat(locale, { minimumFractionDigits: 4, maximumFractionDigits: 4 });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  return (
    <section className="scheduler-fit" aria-labelledby="scheduler-fit-title">
      <h2 id="scheduler-fit-title">{t("statistics.fitTitle")}</h2>
      {fit ? (
        <>
          <p>{t("statistics.fitDone", { count: fit.reviews, day: day.format(new Date(fit.at)), retention })}</p>
          <div className="table-scroll">
            <table className="fit-table">
              <caption>{t("statistics.fitCaption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("statistics.fitMeasure")}</th>
                  <th scope="col">{t("statistics.fitDefaults")}</th>
                  <th scope="col">{t("statistics.fitYours")}</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">{t("statistics.logLoss")}</th>
                  <td>{figure.format(fit.defaults.logLoss)}</td>
                  <td>{figure.format(fit.fitted.logLoss)}</td>
                </tr>
                <tr>
                  <th scope="row">{t("statistics.rmse")}</th>
                  <td>{figure.format(fit.defaults.rmse)}</td>
                  <td>{figure.format(fit.fitted.rmse)}</td>
                </tr>
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p>{t("statistics.fitPending", { retention })}</p>
      )}
    </section>
  );
}

/** A calendar day ("2026-12-07") as the interface language writes it. */
function ruleDate(day: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));
}
