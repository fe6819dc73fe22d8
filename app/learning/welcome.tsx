import { useTranslation } from "../i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import { PATHS, textPath } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import { DailyLimitField, FieldError } from "./ui";
import { LEVELS, type Level } from "./vocabulary";
import type { NextAction, WelcomeErrors, WelcomeValues } from "./welcome.server";

type Option = { code: string; name: string };

/**
 * The first visit to My home: one block of three questions (the language studied, the level, new terms per day), one
 * primary button and a quiet "Skip". A plain form POST to My home; with JavaScript the router sends it and shows the
 * pending state, and the dashboard replaces the form without a reload.
 */
export function WelcomeForm({
  values,
  errors,
  popular,
  others,
}: {
  values: WelcomeValues;
  errors?: WelcomeErrors | null;
  popular: Option[];
  others: Option[];
}) {
  const { t } = useTranslation("learning");
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const described = (name: keyof WelcomeErrors) => (errors?.[name] ? `welcome-${name}-error` : undefined);
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">{t("welcome.title")}</h1>
      <p className="lead">{t("welcome.lead")}</p>
      <Form method="post" className="welcome-card stack" aria-busy={!!submitting}>
        <div className="welcome-question">
          <label htmlFor="welcome-language">{t("welcome.language")}</label>
          <select
            id="welcome-language"
            name="studyLanguage"
            required
            defaultValue={values.studyLanguage}
            aria-invalid={!!errors?.studyLanguage}
            aria-describedby={described("studyLanguage")}
          >
            <option value="" disabled>
              {t("welcome.chooseLanguage")}
            </option>
            <optgroup label={t("welcome.popular")}>
              {popular.map((option) => (
                <option key={option.code} value={option.code}>
                  {option.name}
                </option>
              ))}
            </optgroup>
            <optgroup label={t("welcome.allLanguages")}>
              {others.map((option) => (
                <option key={option.code} value={option.code}>
                  {option.name}
                </option>
              ))}
            </optgroup>
          </select>
          <FieldError id="welcome-studyLanguage-error" error={errors?.studyLanguage ?? undefined} />
        </div>

        <fieldset className="welcome-question" aria-describedby={described("level")}>
          <legend>{t("welcome.level")}</legend>
          <div className="welcome-levels">
            {LEVELS.map((level: Level) => (
              <label key={level} className="welcome-choice">
                <input type="radio" name="level" value={level} defaultChecked={values.level === level} />
                <span>{t(`lists:levels.${level}`)}</span>
              </label>
            ))}
          </div>
          <FieldError id="welcome-level-error" error={errors?.level ?? undefined} />
        </fieldset>

        <div className="welcome-question">
          <DailyLimitField
            name="newPerDay"
            id="welcome-new-per-day"
            value={values.newPerDay}
            error={errors?.newPerDay ?? undefined}
            errorId="welcome-newPerDay-error"
          />
        </div>

        <div className="welcome-actions">
          <button type="submit" name="intent" value="welcome" className="button button-large" disabled={!!submitting}>
            {submitting === "welcome" ? t("welcome.starting") : t("welcome.start")}
          </button>
          <button
            type="submit"
            name="intent"
            value="skip"
            className="link-button"
            formNoValidate
            disabled={!!submitting}
          >
            {t("welcome.skip")}
          </button>
        </div>
        <p className="hint welcome-later">{t("welcome.later")}</p>
      </Form>
    </section>
  );
}

/** My home's first block: the one thing to do next, as its only large button. */
export function NextActionPanel({
  action,
  languageName,
  studyLanguage,
}: {
  action: NextAction;
  languageName: string;
  studyLanguage: string;
}) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  let lead: React.ReactNode;
  let link: { to: string; label: string };
  switch (action.kind) {
    case "review":
      lead = t("next.reviewLead", { count: action.count });
      link = { to: to(PATHS.review), label: t("home.startReview") };
      break;
    case "read":
      lead = (
        <>
          {t("next.readLead")}{" "}
          <strong lang={studyLanguage} className="next-text">
            {action.title}
          </strong>
        </>
      );
      link = { to: to(textPath(action.id)), label: t("next.continueReading") };
      break;
    case "list":
      lead = t("next.listLead", { language: languageName, level: t(`lists:levels.${action.level}`) });
      link = {
        to: to(`${PATHS.publicLists}?${new URLSearchParams({ language: action.language, level: action.level })}`),
        label: t("next.openList"),
      };
      break;
    default:
      lead = t("next.addLead", { language: languageName });
      link = { to: to(PATHS.newTerm), label: t("home.addTerm") };
  }
  return (
    <section className="next-action" aria-labelledby="next-action-title" data-next={action.kind}>
      <h2 id="next-action-title">{t("next.title")}</h2>
      <p>{lead}</p>
      <p>
        <Link className="button button-large" to={link.to}>
          {link.label}
        </Link>
      </p>
    </section>
  );
}
