import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/($lang)._default._index";
import { getInstance } from "../i18n/i18n.server";
import { useLocalePath } from "../ui/locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.home" };

const FEATURES = ["collect", "review", "stages", "explore"] as const;

export function loader({ context }: Route.LoaderArgs) {
  return { description: getInstance(context).t("pages:home.description") };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <>
      <meta name="description" content={loaderData.description} />
      <section className="hero">
        <h1>{t("common:titles.home")}</h1>
        <p className="tagline">{t("common:tagline")}</p>
        <p className="lead">{t("home.lead")}</p>
        <p>
          <Link to={to("/form")} className="button button-large">
            {t("home.cta")}
          </Link>
        </p>
        <p className="hint">{t("home.ctaHint")}</p>
      </section>
      <section aria-labelledby="features-title">
        <h2 id="features-title">{t("home.featuresTitle")}</h2>
        <ul className="cards">
          {FEATURES.map((feature) => (
            <li key={feature} className="card">
              <h3>{t(`home.features.${feature}.title`)}</h3>
              <p>{t(`home.features.${feature}.body`)}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="languages-title">
        <h2 id="languages-title">{t("home.languagesTitle")}</h2>
        <p>{t("home.languagesBody")}</p>
      </section>
    </>
  );
}
