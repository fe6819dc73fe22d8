import { Form } from "react-router";
import { useTranslation } from "../i18n/use-translation";
import { DAILY_GOAL } from "./daily-limits";
import type { GoalProgress } from "./daily-goal.server";
import { FieldError } from "./ui";

/**
 * Today's review time toward the daily goal: a bar, and the same in words (the bar's label), so neither colour nor
 * length alone says it.
 */
export function GoalMeter({ goal, compact = false }: { goal: GoalProgress; compact?: boolean }) {
  const { t } = useTranslation("learning");
  const words = goal.met
    ? t("goal.met", { count: goal.goalMinutes, minutes: goal.minutes })
    : t("goal.progress", { count: goal.goalMinutes, minutes: goal.minutes });
  return (
    <div className={compact ? "goal-meter goal-meter-compact" : "goal-meter"} data-met={goal.met}>
      <progress value={Math.min(goal.minutes, goal.goalMinutes)} max={goal.goalMinutes} aria-label={words} />
      <p className={compact ? "hint goal-words" : "goal-words"}>{words}</p>
    </div>
  );
}

/** The daily goal's question: 5, 10, 15 or 20 minutes, or the learner's own number within DAILY_GOAL's bounds. */
export function DailyGoalField({ value, error }: { value: number | string; error?: string | null }) {
  const { t } = useTranslation("learning");
  const minutes = Number(value);
  const own = !(DAILY_GOAL.choices as readonly number[]).includes(minutes);
  return (
    <fieldset className="goal-field" aria-describedby={error ? "goal-error" : "goal-hint"}>
      <legend>{t("goal.question")}</legend>
      <div className="goal-choices">
        {DAILY_GOAL.choices.map((choice) => (
          <label key={choice} className="welcome-choice">
            <input type="radio" name="goal" value={choice} defaultChecked={!own && minutes === choice} />
            <span>
              {t("goal.choice", { count: choice })} <span className="hint">{t(`goal.choiceHints.m${choice}`)}</span>
            </span>
          </label>
        ))}
        <label className="welcome-choice goal-own">
          <input type="radio" name="goal" value="own" defaultChecked={own} />
          <span>{t("goal.own")}</span>
        </label>
        <label className="goal-own-minutes">
          <span>{t("goal.ownLabel")}</span>
          <input
            type="number"
            name="goalOwn"
            inputMode="numeric"
            min={DAILY_GOAL.min}
            max={DAILY_GOAL.max}
            defaultValue={own && Number.isFinite(minutes) ? String(value) : ""}
            aria-invalid={!!error}
          />
        </label>
      </div>
      <p className="hint" id="goal-hint">
        {t("goal.hint", { max: DAILY_GOAL.max })}
      </p>
      <FieldError id="goal-error" error={error ?? undefined} />
    </fieldset>
  );
}

/** Settings' daily goal: its own form (intent "goal"), posted to the settings page. */
export function GoalForm({ value, error }: { value: number | string; error?: string | null }) {
  const { t } = useTranslation("learning");
  return (
    <section className="settings-section" aria-labelledby="goal-title">
      <h2 id="goal-title">{t("goal.title")}</h2>
      <Form method="post" className="stack">
        <input type="hidden" name="intent" value="goal" />
        <DailyGoalField value={value} error={error} />
        <button type="submit" className="button">
          {t("goal.save")}
        </button>
      </Form>
    </section>
  );
}
