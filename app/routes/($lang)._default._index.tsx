import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/($lang)._default._index";
import { SignInForm } from "../auth/sign-in-form";
import { userContext } from "../auth/session.server";
import { getDatabase } from "../db/db.server";
import { PATHS } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import { daySummary } from "../learning/daily.server";
import { DayPanel } from "../learning/day-panel";
import { studyLanguageContext } from "../learning/preferences.server";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.home", description: "pages:home.description" };

const FEATURES = ["collect", "review", "stages", "explore"] as const;

/**
 * A signed-in learner's day instead of the sign-in form. Anonymous visitors get the same page for everyone, served from
 * the public-page cache; a session cookie always bypasses it (app/http/page-cache.server.ts).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  if (!user) return { day: null };
  const owner = { userId: user.id, language: context.get(studyLanguageContext) };
  return { day: (await daySummary(await getDatabase(), owner)).summary };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  const { day } = loaderData;
  return (
    <>
      <section className="hero">
        <h1>{t("common:titles.home")}</h1>
        <p className="tagline">{t("common:tagline")}</p>
        {day ? (
          <>
            <DayPanel day={day} />
            <p>
              <Link to={to(PATHS.learnerHome)}>{t("common:nav.accountHome")}</Link>
            </p>
          </>
        ) : (
          <>
            <p className="lead">{t("home.lead")}</p>
            <h2 className="cta-title">{t("home.cta")}</h2>
            <p className="hint">{t("home.ctaHint")}</p>
            <SignInForm id="home-email" />
          </>
        )}
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
