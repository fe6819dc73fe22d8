import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalePath } from "../ui/locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.explore" };

const LEVELS = ["beginner", "elementary", "intermediate", "upper_intermediate", "advanced", "expert"] as const;

export default function ExplorePage() {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <section>
      <h1>{t("common:titles.explore")}</h1>
      <p className="lead">{t("explore.intro")}</p>
      <h2>{t("explore.levelsTitle")}</h2>
      <ul className="chips">
        {LEVELS.map((level) => (
          <li key={level}>{t(`explore.levels.${level}`)}</li>
        ))}
      </ul>
      <p>
        <Link to={to("/form")}>{t("explore.signInToAdd")}</Link>
      </p>
    </section>
  );
}
