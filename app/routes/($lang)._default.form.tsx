import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { useLocalePath } from "../ui/locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.form" };

export default function SignInPage() {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <section className="narrow">
      <h1>{t("common:titles.form")}</h1>
      <p>{t("form.intro")}</p>
      <Form method="post" className="stack">
        <label htmlFor="email">{t("form.emailLabel")}</label>
        <input id="email" name="email" type="email" autoComplete="email" required aria-describedby="email-hint" />
        <p id="email-hint" className="hint">{t("form.emailHint")}</p>
        <button type="submit" className="button">{t("form.submit")}</button>
      </Form>
      <p className="hint">
        <Link to={to("/company/terms-of-use")}>{t("common:footer.termsOfUse")}</Link> ·{" "}
        <Link to={to("/company/privacy")}>{t("common:footer.privacy")}</Link>
      </p>
      <p className="hint">{t("form.privacyNote")}</p>
    </section>
  );
}
