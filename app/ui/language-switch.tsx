import { useTranslation } from "react-i18next";
import { Form, useLocation, useNavigation, useSubmit } from "react-router";
import { LOCALES, localeAutonym, localePath, splitLocale } from "../i18n/locales";
import { useLocale } from "../i18n/use-locale";

/** A plain form POST to /locale: it works without JavaScript; with it, choosing a language submits at once. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const locale = useLocale();
  const location = useLocation();
  const submit = useSubmit();
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
      <select
        id="language-switch-select"
        name="lng"
        defaultValue={locale}
        key={locale}
        onChange={(event) => submit(event.currentTarget.form)}
      >
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {localeAutonym(code)}
          </option>
        ))}
      </select>
      <button type="submit" className="button button-small">
        {t("language.submit")}
      </button>
    </Form>
  );
}
