import { useTranslation } from "../i18n/use-translation";
import { Link } from "react-router";
import type { Route } from "./+types/($lang)._default._index";
import { SignInForm } from "../auth/sign-in-form";
import { userContext } from "../auth/session.server";
import { getDatabase } from "../db/db.server";
import { PATHS, samplePath } from "../http/paths";
import { landingDemo } from "../reading/landing-demo.server";
import { useLocalePath } from "../i18n/use-locale";
import { dayMemory, daySummary, learnerDayOf } from "../learning/daily.server";
import { DayPanel } from "../learning/day-panel";
import { studyLanguageContext } from "../learning/preferences.server";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";
import { ReaderPicture } from "../reading/reader-picture";

/** The landing page shows a signed-in learner's day; its demonstration is shipped. */
export const handle: PageHandle & StalenessHandle = {
  title: "titles.home",
  description: "landing:description",
  staleness: { dependsOn: ["learner"] },
};

const FEATURES = ["collect", "review", "stages", "explore"] as const;

/**
 * A signed-in learner's day instead of the sign-in form. Anonymous visitors get the same page for everyone, served from
 * the public-page cache; a session cookie always bypasses it (app/edge/page-cache.server.ts).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const demo = landingDemo(request, context);
  if (!user) return { day: null, demo };
  const owner = { userId: user.id, language: context.get(studyLanguageContext) };
  const db = await getDatabase();
  return {
    day: (await daySummary(db, owner, await learnerDayOf(context, db, owner, dayMemory(request, user)))).summary,
    demo,
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("landing");
  const to = useLocalePath();
  const { day, demo } = loaderData;
  return (
    <>
      <section className="hero landing-hero">
        <div className="hero-text">
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
              <p className="lead">{t("lead")}</p>
              <h2 className="cta-title">{t("cta")}</h2>
              <p className="hint">{t("ctaHint")}</p>
              <SignInForm id="home-email" />
            </>
          )}
        </div>
        <ReaderDemo demo={demo} />
      </section>
      <ReaderPicture />
      <section aria-labelledby="samples-title">
        <h2 id="samples-title">{t("demo.samplesTitle")}</h2>
        <ul className="cards sample-cards">
          {demo.samples.map((sample) => (
            <li key={sample.slug} className="card">
              <p className="eyebrow">
                {sample.languageName} · {sample.level}
              </p>
              <h3>
                <Link to={to(samplePath(sample.slug))} lang={sample.language}>
                  {sample.title}
                </Link>
              </h3>
              <p className="hint">{sample.length}</p>
            </li>
          ))}
        </ul>
        <p>
          <Link to={to(PATHS.sampleTexts)}>{t("demo.samplesAll")}</Link>
        </p>
      </section>
      <section aria-labelledby="features-title">
        <h2 id="features-title">{t("featuresTitle")}</h2>
        <ul className="cards">
          {FEATURES.map((feature) => (
            <li key={feature} className="card">
              <h3>{t(`features.${feature}.title`)}</h3>
              <p>
                {feature === "explore"
                  ? t("features.explore.body", { count: demo.languages.lists })
                  : t(`features.${feature}.body`)}
              </p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="languages-title">
        <h2 id="languages-title">{t("languagesTitle")}</h2>
        <p>{t("languagesBody", { count: demo.languages.study })}</p>
      </section>
    </>
  );
}

type Demo = Route.ComponentProps["loaderData"]["demo"];

/**
 * A picture of the reader that is the reader's own markup: words tinted and underlined by stage, each a link that
 * opens its panel (`?word=N#demo`, rendered by the server, so it works without JavaScript).
 */
function ReaderDemo({ demo }: { demo: Demo }) {
  const { t } = useTranslation("landing");
  const { open } = demo;
  return (
    <figure className="reader-demo" id="demo" aria-labelledby="demo-title">
      <h2 id="demo-title" className="reader-demo-title">
        {t("demo.title")}
      </h2>
      <p className="reader-text" lang="en">
        {demo.words.map((word, index) => (
          <span key={index}>
            <Link
              to={`?word=${index}#demo`}
              className={`word w-${word.stage}`}
              aria-current={index === open.index ? "true" : undefined}
              preventScrollReset
              replace
            >
              {word.text}
            </Link>
            {word.end}
          </span>
        ))}
      </p>
      <div className="word-panel" aria-live="polite">
        <p className="eyebrow">{t("demo.open")}</p>
        <p>
          <strong lang="en">{open.text}</strong>
          {open.meaning ? <> — {open.meaning}</> : null}{" "}
          <span className={`word word-stage w-${open.stage}`}>{open.stageName}</span>
        </p>
      </div>
      <ul className="reader-legend">
        {demo.legend.map(({ stage, name }) => (
          <li key={stage}>
            <span className={`word word-stage w-${stage}`}>{name}</span>
          </li>
        ))}
      </ul>
      <figcaption className="hint">{t("demo.caption")}</figcaption>
    </figure>
  );
}
