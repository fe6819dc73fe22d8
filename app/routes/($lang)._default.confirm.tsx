import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalePath } from "../ui/locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.confirm" };

export default function ConfirmPage() {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <section className="narrow">
      <h1>{t("common:titles.confirm")}</h1>
      <p>{t("confirm.intro")}</p>
      <p>{t("confirm.noLink")}</p>
      <p>
        <Link to={to("/form")} className="button">{t("confirm.requestNew")}</Link>
      </p>
    </section>
  );
}
