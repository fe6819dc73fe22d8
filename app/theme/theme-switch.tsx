import { useTranslation } from "../i18n/use-translation";
import { Form, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import { SubmitWithoutScript, useSubmitOnChange } from "../ui/submit-on-change";
import type { RootData } from "../root";
import { THEMES } from "./theme";

/** Light, dark or the system's choice: a plain form POST to /theme; with JavaScript, choosing submits at once. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const theme = useRouteLoaderData<RootData>("root")?.theme ?? "system";
  const location = useLocation();
  const submitOnChange = useSubmitOnChange({ preventScrollReset: true });
  const pending = useNavigation().formAction === "/theme";
  return (
    <Form method="post" action="/theme" className="theme-switch" aria-busy={pending}>
      {/* A prerendered page was rendered at "/path/": come back to the address without the slash. */}
      <input type="hidden" name="redirectTo" value={location.pathname.replace(/(.)\/$/, "$1") + location.search} />
      <label htmlFor="theme-switch-select">{t("theme.label")}</label>
      <select id="theme-switch-select" name="theme" defaultValue={theme} key={theme} onChange={submitOnChange}>
        {THEMES.map((name) => (
          <option key={name} value={name}>
            {t(`theme.${name}`)}
          </option>
        ))}
      </select>
      <SubmitWithoutScript className="button button-small button-secondary">{t("theme.submit")}</SubmitWithoutScript>
    </Form>
  );
}
