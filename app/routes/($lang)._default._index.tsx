import { useTranslation } from "react-i18next";
import { SignInForm } from "../auth/sign-in-form";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.home", description: "pages:home.description" };

const FEATURES = ["collect", "review", "stages", "explore"] as const;

export default function Home() {
  const { t } = useTranslation("pages");
  return (
    <>
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
