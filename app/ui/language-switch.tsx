import { useTranslation } from "../i18n/use-translation";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { SubmitWithoutScript, useSubmitOnChange } from "./submit-on-change";
import { LOCALES, localeAutonym, localePath, splitLocale } from "../i18n/locales";
import { useLocale } from "../i18n/use-locale";

/** A plain form POST to /locale: it works without JavaScript; with it, choosing a language submits at once. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const locale = useLocale();
  const location = useLocation();
  const submitOnChange = useSubmitOnChange();
  const navigation = useNavigation();
  const pending = navigation.formAction === "/locale";
  return (
    <Form method="post" action="/locale" className="language-switch" aria-busy={pending}>
      <input
        type="hidden"
        name="redirectTo"
        value={localePath(locale, splitLocale(location.pathname).path) + location.search}
      />
      <label htmlFor="language-switch-select">{t("language.label")}</label>
      <select id="language-switch-select" name="lng" defaultValue={locale} key={locale} onChange={submitOnChange}>
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {localeAutonym(code)}
          </option>
        ))}
      </select>
      <SubmitWithoutScript className="button button-small button-secondary">{t("language.submit")}</SubmitWithoutScript>
    </Form>
  );
}

/**
 * The header's compact language switch for visitors: links to the same page in each language (locale-prefixed URLs,
 * which work without JavaScript), behind a disclosure showing the current language's code.
 */
export function LanguageLinks() {
  const { t } = useTranslation();
  const locale = useLocale();
  const location = useLocation();
  const { path } = splitLocale(location.pathname);
  return (
    <details className="language-menu" key={location.pathname}>
      <summary>
        <span aria-hidden="true">{locale.toUpperCase()}</span>{" "}
        <span className="visually-hidden">
          {t("language.label")}: {localeAutonym(locale)}
        </span>
      </summary>
      <ul className="menu-panel">
        {LOCALES.map((code) => (
          <li key={code}>
            <Link
              className="menu-item"
              to={localePath(code, path) + location.search}
              hrefLang={code}
              lang={code}
              aria-current={code === locale ? "true" : undefined}
            >
              {localeAutonym(code)}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
