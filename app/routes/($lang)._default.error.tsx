import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalePath } from "../ui/locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.error" };

/** Where a sign-in that cannot finish ends up, with a way to start again. */
export default function SignInErrorPage() {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <section className="narrow">
      <h1>{t("common:titles.error")}</h1>
      <p>{t("error.intro")}</p>
      <p>{t("error.generic")}</p>
      <p>
        <Link to={to("/form")} className="button">{t("error.retry")}</Link>
      </p>
    </section>
  );
}
