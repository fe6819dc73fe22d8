import { useTranslation } from "react-i18next";
import type { Route } from "./+types/($lang)._default._index";
import { getInstance } from "../i18n/i18n.server";
import { SignInForm } from "../auth/sign-in-form";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.home" };

const FEATURES = ["collect", "review", "stages", "explore"] as const;

export function loader({ context }: Route.LoaderArgs) {
  return { description: getInstance(context).t("pages:home.description") };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("pages");
  return (
    <>
      <meta name="description" content={loaderData.description} />
      <section className="hero">
        <h1>{t("common:titles.home")}</h1>
        <p className="tagline">{t("common:tagline")}</p>
        <p className="lead">{t("home.lead")}</p>
        <h2 className="cta-title">{t("home.cta")}</h2>
        <p className="hint">{t("home.ctaHint")}</p>
        <SignInForm id="home-email" />
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
