import { useTranslation } from "../i18n/use-translation";
import { Link } from "react-router";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { PATHS } from "../http/paths";

export const handle: PageHandle = { title: "titles.accountExplore" };

export default function AccountExplorePage() {
  const { t } = useTranslation("account");
  const to = useLocalePath();
  return (
    <section>
      <h1>{t("common:titles.accountExplore")}</h1>
      <p className="lead">{t("account.exploreIntro")}</p>
      <ul className="cards">
        <li className="card">
          <h2>
            <Link to={to(PATHS.memberTerms)}>{t("common:titles.member")}</Link>
          </h2>
          <p>{t("account.memberIntro")}</p>
        </li>
        <li className="card">
          <h2>
            <Link to={to(PATHS.publicLists)}>{t("common:titles.public")}</Link>
          </h2>
          <p>{t("account.publicIntro")}</p>
        </li>
      </ul>
    </section>
  );
}
