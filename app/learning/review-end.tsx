import { useEffect, useState } from "react";
import { Link, useRevalidator } from "react-router";
import { useTranslation } from "../i18n/use-translation";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";
import type { GoalProgress } from "./daily-goal.server";
import { GoalMeter } from "./daily-goal";

/** The end of a session: whether today's goal is met, or how many minutes are left to meet it. */
export function GoalMessage({ goal }: { goal: GoalProgress }) {
  const { t } = useTranslation("learning");
  return (
    <div className="goal-message" data-met={goal.met}>
      <p className="goal-message-text">
        {goal.met
          ? t("goal.sessionMet", { count: goal.goalMinutes })
          : t("goal.sessionLeft", { count: goal.goalMinutes - goal.minutes, goal: goal.goalMinutes })}
      </p>
      <GoalMeter goal={goal} />
    </div>
  );
}

/**
 * A learning card due within a minute: a countdown in seconds, then the card, read again without a reload. Without
 * JavaScript the page says it comes within a minute and links to it (no automatic refresh: ADR 119).
 */
export function NextCardCountdown({ nextDueAt }: { nextDueAt: string }) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const { revalidate } = useRevalidator();
  // Null on the server and at hydration (the clocks differ), then the seconds left, counted on the device.
  const [seconds, setSeconds] = useState<number | null>(null);
  useEffect(() => {
    const due = new Date(nextDueAt).getTime();
    let asked = false;
    const tick = () => {
      const left = Math.max(0, Math.ceil((due - Date.now()) / 1000));
      setSeconds(left);
      if (left === 0 && !asked) {
        asked = true;
        void revalidate();
      }
    };
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [nextDueAt, revalidate]);
  return (
    <div className="next-card-countdown">
      <p className="lead">
        {seconds === null ? (
          t("review.nextSoon")
        ) : (
          <span role="timer" aria-live="off">
            {t("review.countdown", { count: seconds })}
          </span>
        )}
      </p>
      <p className="actions">
        <Link className="button button-secondary" to={to(PATHS.review)} reloadDocument>
          {t("review.showCard")}
        </Link>
      </p>
    </div>
  );
}
