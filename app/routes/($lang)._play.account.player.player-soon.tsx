import { useTranslation } from "../i18n/use-translation";
import { Link } from "react-router";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.playerSoon" };

export default function PlayerSoonPage() {
  const { t } = useTranslation("account");
  const to = useLocalePath();
  return (
    <section className="play">
      <p className="eyebrow">{t("common:titles.player")}</p>
      <h1>{t("account.playerSoon")}</h1>
      <p className="lead">{t("account.playerSoonBody")}</p>
      <p>
        <Link className="button" to={to(PATHS.crowdfunding)}>
          {t("common:titles.crowdfunding")}
        </Link>
      </p>
    </section>
  );
}
