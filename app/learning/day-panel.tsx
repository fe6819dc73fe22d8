import { useTranslation } from "../i18n/use-translation";
import { Link } from "react-router";
import { PATHS } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import type { DaySummary } from "./daily.server";
import { BrowserTimeZone } from "./browser-time-zone";

/**
 * The learner's day: what waits now and today, the new terms and reviews left today, and the way to the review (left
 * out with `start={false}` where the page leads with its own next step).
 */
export function DayPanel({
  day,
  headingLevel = 2,
  start = true,
}: {
  day: DaySummary;
  headingLevel?: 1 | 2;
  start?: boolean;
}) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <div className="day-panel">
      <Heading>{t("today.title")}</Heading>
      <ul className="day-figures">
        <li data-figure="due">{t("due", { count: day.dueNow })}</li>
        <li data-figure="dueToday">{t("today.dueToday", { count: day.dueToday })}</li>
        <li data-figure="newLeft">{t("today.newLeft", { count: day.newLeft })}</li>
        <li data-figure="reviewsLeft">{t("today.reviewsLeft", { count: day.reviewsLeft })}</li>
        <li data-figure="streak">{t("statistics.streak", { count: day.streak })}</li>
      </ul>
      {!start ? null : day.dueNow > 0 ? (
        <p>
          <Link className="button button-large" to={to(PATHS.review)}>
            {t("home.startReview")}
          </Link>
        </p>
      ) : (
        <p className="hint">{t("home.nothingDue")}</p>
      )}
      <p className="hint">
        <Link to={to(PATHS.settings)}>{t("today.settingsLink")}</Link>
      </p>
      {day.timeZoneChosen ? null : <BrowserTimeZone action={to(PATHS.settings)} />}
    </div>
  );
}
