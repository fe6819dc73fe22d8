import { useState, useSyncExternalStore } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useTranslation } from "../i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { REVIEW_MODES } from "./review-modes";
import type { SettingsErrors } from "./settings.server";
import { DailyLimitField, FieldError } from "./ui";
import { intervalRatio, RETENTION, RETENTION_CHOICES } from "./retention";
import { useLocale } from "../i18n/use-locale";
import { browserTimeZone } from "./browser-time-zone";

export type SettingsValues = {
  newPerDay: string;
  reviewsPerDay: string;
  timeZone: string;
  modes: string[];
  /** One of RETENTION_CHOICES ("0.90"). */
  desiredRetention: string;
};

const noSubscription = () => () => {};

/**
 * Daily limits, time zone and review modes. Without JavaScript the zone is a plain select (UTC until chosen); with it,
 * a learner who has not chosen one finds their browser's zone preselected.
 */
export function SettingsForm({
  values,
  errors,
  zones,
  zoneChosen,
}: {
  values: SettingsValues;
  errors?: SettingsErrors;
  zones: string[];
  zoneChosen: boolean;
}) {
  const { t } = useTranslation("learning");
  const pending = useNavigation().state === "submitting";
  // Null while rendered on the server and hydrated, the browser's zone right after.
  const browser = useSyncExternalStore(noSubscription, browserTimeZone, () => null);
  const zone = !zoneChosen && browser ? browser : values.timeZone;
  const options = zones.includes(zone) ? zones : [...zones, zone];
  const described = (name: keyof SettingsErrors) => (errors?.[name] ? `${name}-error` : undefined);
  return (
    <Form method="post" className="stack" aria-busy={pending}>
      <input type="hidden" name="intent" value="settings" />
      <DailyLimitField
        name="newPerDay"
        id="newPerDay"
        value={values.newPerDay}
        error={errors?.newPerDay}
        errorId="newPerDay-error"
      />
      <DailyLimitField
        name="reviewsPerDay"
        id="reviewsPerDay"
        value={values.reviewsPerDay}
        error={errors?.reviewsPerDay}
        errorId="reviewsPerDay-error"
      />
      <TimeZoneField key={zone} zone={zone} options={options} invalid={!!errors?.timeZone} />
      <p className="hint" id="timeZone-hint">
        {t("settings.timeZoneHint")}
      </p>
      <FieldError id="timeZone-error" error={errors?.timeZone} />
      <fieldset className="stack" aria-describedby={described("modes")}>
        <legend>{t("settings.modes")}</legend>
        {REVIEW_MODES.map((mode) => (
          <label key={mode} className="checkbox">
            <input type="checkbox" name="modes" value={mode} defaultChecked={values.modes.includes(mode)} />
            <span>
              {t(`review.modes.${mode}`)} <span className="hint">— {t(`settings.modeHints.${mode}`)}</span>
            </span>
          </label>
        ))}
        <FieldError id="modes-error" error={errors?.modes} />
      </fieldset>
      <RetentionField value={values.desiredRetention} error={errors?.desiredRetention} />
      <button type="submit" className="button" disabled={pending}>
        {t("settings.save")}
      </button>
    </Form>
  );
}

const zoneLabel = (name: string) => name.replace(/_/g, " ");
const zoneMatches = (query: string) => {
  const words = query.toLowerCase().replace(/_/g, " ").split(/\s+/).filter(Boolean);
  return (name: string) => words.every((word) => zoneLabel(name).toLowerCase().includes(word));
};

/**
 * The zone: a plain select, which works without JavaScript. With JavaScript a search box above it narrows the list to
 * the zones whose name has every typed word ("kyiv", "ho chi") and selects the first match, so the learner need not
 * scroll through four hundred names.
 */
function TimeZoneField({ zone, options, invalid }: { zone: string; options: string[]; invalid: boolean }) {
  const { t } = useTranslation("learning");
  const hydrated = useHydrated();
  const [query, setQuery] = useState("");
  const [value, setValue] = useState(zone);
  const matches = query ? options.filter(zoneMatches(query)) : options;
  const shown = matches.includes(value) ? matches : [value, ...matches];
  const search = (typed: string) => {
    setQuery(typed);
    const first = typed ? options.find(zoneMatches(typed)) : undefined;
    if (first) setValue(first);
  };
  return (
    <>
      {hydrated ? (
        <>
          <label htmlFor="timeZoneSearch">{t("settings.timeZoneSearch")}</label>
          <input
            id="timeZoneSearch"
            type="search"
            autoComplete="off"
            spellCheck={false}
            aria-controls="timeZone"
            value={query}
            onChange={(event) => search(event.currentTarget.value)}
          />
        </>
      ) : null}
      <label htmlFor="timeZone">{t("settings.timeZone")}</label>
      <select
        id="timeZone"
        name="timeZone"
        value={value}
        onChange={(event) => setValue(event.currentTarget.value)}
        aria-describedby={invalid ? "timeZone-error" : "timeZone-hint"}
        aria-invalid={invalid}
      >
        {shown.map((name) => (
          <option key={name} value={name}>
            {zoneLabel(name)}
          </option>
        ))}
      </select>
    </>
  );
}

/**
 * The desired retention: a plain select of the hundredths from 80 % to 97 % (no JavaScript needed), with a sentence on
 * what a higher or lower one does to the workload, its figures from FSRS's forgetting curve.
 */
function RetentionField({ value, error }: { value: string; error?: string }) {
  const { t } = useTranslation("learning");
  const locale = useLocale();
  const percent = new Intl.NumberFormat(locale, { style: "percent" });
  const high = 0.95;
  const low = RETENTION.min;
  const options = RETENTION_CHOICES.includes(value) ? RETENTION_CHOICES : [value, ...RETENTION_CHOICES];
  return (
    <>
      <label htmlFor="desiredRetention">{t("settings.retention")}</label>
      <select
        id="desiredRetention"
        name="desiredRetention"
        key={value}
        defaultValue={value}
        aria-invalid={!!error}
        aria-describedby={error ? "desiredRetention-hint desiredRetention-error" : "desiredRetention-hint"}
      >
        {options.map((choice) => (
          <option key={choice} value={choice}>
            {Number.isFinite(Number(choice)) && choice !== "" ? percent.format(Number(choice)) : choice}
          </option>
        ))}
      </select>
      <p className="hint" id="desiredRetention-hint">
        {t("settings.retentionHint", {
          base: RETENTION.default,
          high,
          shorter: 1 / intervalRatio(high),
          low,
          longer: intervalRatio(low),
        })}
      </p>
      <FieldError id="desiredRetention-error" error={error} />
    </>
  );
}
