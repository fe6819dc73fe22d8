import { useTranslation } from "../i18n/use-translation";
import { Form } from "react-router";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";

/** Ends every session of the learner, on every device: a plain form POST to the logout route. */
export function SignOutEverywhere() {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <Form method="post" action={to(PATHS.logout)} className="sign-out-everywhere">
      <p className="hint">{t("logout.everywhereIntro")}</p>
      <input type="hidden" name="intent" value="everywhere" />
      <button type="submit" className="button button-secondary">
        {t("logout.everywhere")}
      </button>
    </Form>
  );
}
