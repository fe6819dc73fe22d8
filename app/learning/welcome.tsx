import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { useTranslation } from "../i18n/use-translation";
import { DailyGoalField } from "./daily-goal";
import { FieldError } from "./ui";
import { LEVELS, type Level } from "./vocabulary";

/** A study language as the welcome lists it: `search` holds its names and code, folded for searching. */
export type LanguageOption = { code: string; name: string; search: string };

export type WelcomeProps = {
  step: "language" | "level" | "goal";
  values: { studyLanguage: string; level: string; goal: number | string };
  /** The study language's name, for the level's question. */
  languageName: string;
  popular: LanguageOption[];
  others: LanguageOption[];
  query: string;
  /** A translation key of the `learning` namespace, from a refused answer. */
  error?: string | null;
};

/** Lower case without accents, as the server folds `search`. */
export const foldForSearch = (value: string) => value.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

const STEP_NUMBER = { language: 1, level: 2, goal: 3 } as const;

/**
 * The first visit to My home: one question a screen (the language studied, the level, the daily goal), each a plain
 * form POST that saves the answer and redirects to the next step (`?step=`), with a back link and a quiet "Skip". The
 * last step leads into the first lesson. With JavaScript the router sends the forms and the language search filters
 * as the learner types.
 */
export function Welcome(props: WelcomeProps) {
  const { t } = useTranslation("learning");
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const { step } = props;
  // The language search, typed: the list below filters as it changes (without JavaScript, the search form is sent).
  const [filter, setFilter] = useState(props.query);
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">{t("welcome.title")}</h1>
      <p className="welcome-step">{t("welcome.stepOf", { step: STEP_NUMBER[step], total: 3 })}</p>
      {step === "language" ? <p className="lead">{t("welcome.lead")}</p> : null}
      {step === "language" ? <LanguageSearch query={props.query} onFilter={setFilter} /> : null}
      <Form method="post" className="welcome-card stack" aria-busy={!!submitting}>
        <input type="hidden" name="intent" value={step} />
        {step === "language" ? <LanguageChoice {...props} filter={filter} /> : null}
        {step === "level" ? <LevelChoice {...props} /> : null}
        {step === "goal" ? <DailyGoalField value={props.values.goal} error={props.error} /> : null}
        <div className="welcome-actions">
          {step === "language" ? null : (
            <Link to={`?step=${step === "goal" ? "level" : "language"}`} className="welcome-back">
              {t("welcome.back")}
            </Link>
          )}
          <button type="submit" className="button button-large" disabled={!!submitting}>
            {submitting === step ? t("welcome.starting") : t(step === "goal" ? "welcome.finish" : "welcome.next")}
          </button>
        </div>
      </Form>
      <Form method="post" className="welcome-skip">
        <button type="submit" name="intent" value="skip" className="link-button" disabled={!!submitting}>
          {t("welcome.skip")}
        </button>
        <p className="hint welcome-later">{t("welcome.later")}</p>
      </Form>
    </section>
  );
}

/** The search of the language step: a GET form without JavaScript; with it, the list filters as the learner types. */
function LanguageSearch({ query, onFilter }: { query: string; onFilter: (value: string) => void }) {
  const { t } = useTranslation("learning");
  return (
    <Form method="get" role="search" className="inline-form welcome-search" aria-label={t("welcome.search")}>
      <input type="hidden" name="step" value="language" />
      <label htmlFor="welcome-search">{t("welcome.search")}</label>
      <input
        id="welcome-search"
        type="search"
        name="q"
        defaultValue={query}
        maxLength={60}
        autoComplete="off"
        aria-controls="welcome-languages"
        onInput={(event) => onFilter(event.currentTarget.value)}
      />
      <button type="submit" className="button button-small button-secondary">
        {t("welcome.searchButton")}
      </button>
    </Form>
  );
}

function LanguageChoice({ values, popular, others, error, filter }: WelcomeProps & { filter: string }) {
  const { t } = useTranslation("learning");
  const folded = foldForSearch(filter.trim());
  const matches = (option: LanguageOption) => !folded || option.search.includes(folded);
  const shownPopular = popular.filter(matches);
  const shownOthers = others.filter(matches);
  const radio = (option: LanguageOption) => (
    <label key={option.code} className="welcome-choice">
      <input
        type="radio"
        name="studyLanguage"
        value={option.code}
        required
        defaultChecked={values.studyLanguage === option.code}
      />
      <span>{option.name}</span>
    </label>
  );
  return (
    <fieldset
      className="welcome-question"
      id="welcome-languages"
      aria-describedby={error ? "welcome-error" : undefined}
    >
      <legend>{t("welcome.language")}</legend>
      {shownPopular.length + shownOthers.length === 0 ? (
        <p role="status">{t("welcome.noMatch", { query: filter.trim() })}</p>
      ) : null}
      {shownPopular.length > 0 ? (
        <div className="welcome-languages" role="group" aria-label={t("welcome.popular")}>
          {shownPopular.map(radio)}
        </div>
      ) : null}
      {folded ? (
        shownOthers.length > 0 ? (
          <div className="welcome-languages" role="group" aria-label={t("welcome.allLanguages")}>
            {shownOthers.map(radio)}
          </div>
        ) : null
      ) : (
        <details className="welcome-more">
          <summary>{t("welcome.moreLanguages", { count: others.length })}</summary>
          <div className="welcome-languages">{others.map(radio)}</div>
        </details>
      )}
      <FieldError id="welcome-error" error={error ?? undefined} />
    </fieldset>
  );
}

function LevelChoice({ values, languageName, error }: WelcomeProps) {
  const { t } = useTranslation("learning");
  return (
    <fieldset className="welcome-question" aria-describedby={error ? "welcome-error" : undefined}>
      <legend>{t("welcome.levelQuestion", { language: languageName })}</legend>
      <div className="welcome-levels">
        {LEVELS.map((level: Level) => (
          <label key={level} className="welcome-choice welcome-level">
            <input
              type="radio"
              name="level"
              value={level}
              required
              defaultChecked={values.level === level}
              aria-describedby={`level-${level}-hint`}
            />
            <span className="welcome-level-name">{t(`lists:levels.${level}`)}</span>
            <span className="hint" id={`level-${level}-hint`}>
              {t(`welcome.levelHints.${level}`)}
            </span>
          </label>
        ))}
      </div>
      <FieldError id="welcome-error" error={error ?? undefined} />
    </fieldset>
  );
}
