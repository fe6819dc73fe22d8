import { useContext } from "react";
import { I18nContext } from "react-i18next";
import { useTranslation } from "../i18n/use-translation";
import type { Stage } from "./vocabulary";
import { LIMITS, type DailyLimit } from "./daily-limits";

/** One per table row: it translates through the context's instance, without useTranslation's per-component wrapper. */
export function StageBadge({ stage }: { stage: Stage }) {
  const { i18n } = useContext(I18nContext);
  return <span className={`stage stage-${stage}`}>{i18n.t(`stages.${stage}`, { ns: "learning" })}</span>;
}

export function FieldError({ id, error }: { id: string; error?: string }) {
  const { t } = useTranslation("learning");
  if (!error) return null;
  return (
    <p className="field-error" id={id}>
      {t(error)}
    </p>
  );
}

/**
 * One daily limit as a number field with its hint and error: the settings form and the welcome draw the same markup
 * from the same range. The hint describes the field until an error replaces it.
 */
export function DailyLimitField({
  name,
  id,
  value,
  error,
  errorId,
}: {
  name: DailyLimit;
  id: string;
  value: string;
  error?: string;
  errorId: string;
}) {
  const { t } = useTranslation("learning");
  const hintId = `${id}-hint`;
  return (
    <>
      <label htmlFor={id}>{t(`settings.${name}`)}</label>
      <input
        id={id}
        name={name}
        type="number"
        inputMode="numeric"
        min={LIMITS[name].min}
        max={LIMITS[name].max}
        required
        defaultValue={value}
        aria-invalid={!!error}
        aria-describedby={error ? errorId : hintId}
      />
      <p className="hint" id={hintId}>
        {t(`settings.${name}Hint`)}
      </p>
      <FieldError id={errorId} error={error} />
    </>
  );
}
