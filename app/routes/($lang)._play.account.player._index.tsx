import { useTranslation } from "../i18n/use-translation";
import { Link } from "react-router";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { PATHS } from "../http/paths";

export const handle: PageHandle = { title: "titles.player" };

export default function PlayerPage() {
  const { t } = useTranslation("account");
  const to = useLocalePath();
  return (
    <section className="play">
      <h1>{t("common:titles.player")}</h1>
      <p className="lead">{t("account.playerIntro")}</p>
      <p>
        <Link className="button" to={to(PATHS.playerSoon)}>
          {t("account.playerSoonLink")}
        </Link>
      </p>
    </section>
  );
}
