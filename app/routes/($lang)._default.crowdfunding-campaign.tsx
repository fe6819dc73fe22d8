import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { PATHS } from "../http/paths";

export const handle: PageHandle = { title: "titles.crowdfunding", description: "descriptions.crowdfunding" };

const GOALS = ["player", "languages", "offline"] as const;

export default function CrowdfundingPage() {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <section>
      <h1>{t("common:titles.crowdfunding")}</h1>
      <p className="lead">{t("crowdfunding.intro")}</p>
      <h2>{t("crowdfunding.goalTitle")}</h2>
      <ul>
        {GOALS.map((goal) => (
          <li key={goal}>{t(`crowdfunding.goals.${goal}`)}</li>
        ))}
      </ul>
      <h2>{t("crowdfunding.howTitle")}</h2>
      <p>{t("crowdfunding.how")}</p>
      <p>
        <Link className="button" to={to(PATHS.subscription)}>
          {t("crowdfunding.cta")}
        </Link>
      </p>
    </section>
  );
}
