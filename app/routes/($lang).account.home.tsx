import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalePath } from "../ui/locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.accountHome" };

export default function AccountHomePage() {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <section>
      <h1>{t("common:titles.accountHome")}</h1>
      <p className="lead">{t("account.homeIntro")}</p>
      <ul className="cards">
        <li className="card"><Link to={to("/account/explore/member")}>{t("common:nav.member")}</Link></li>
        <li className="card"><Link to={to("/account/explore/public")}>{t("common:nav.public")}</Link></li>
        <li className="card"><Link to={to("/account/player")}>{t("common:nav.player")}</Link></li>
      </ul>
    </section>
  );
}
