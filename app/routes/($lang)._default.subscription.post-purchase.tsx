import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { PATHS } from "../http/paths";

export const handle: PageHandle = { title: "titles.postPurchase", description: "descriptions.postPurchase" };

export default function PostPurchasePage() {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <section className="narrow">
      <h1>{t("common:titles.postPurchase")}</h1>
      <p className="lead">{t("postPurchase.intro")}</p>
      <p>{t("postPurchase.body")}</p>
      <p>
        <Link className="button" to={to(PATHS.learnerHome)}>
          {t("postPurchase.continue")}
        </Link>
      </p>
    </section>
  );
}
