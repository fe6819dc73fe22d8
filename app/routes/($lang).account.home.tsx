import { useTranslation } from "../i18n/use-translation";
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/($lang).account.home";
import { getDatabase } from "../db/db.server";
import { requireLearner } from "../learning/learner.server";
import { LevelForm, StudyLanguageForm } from "../learning/preference-forms";
import { studyLanguageName, studyLanguageOptions } from "../learning/study-language";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { recentTerms, stageCountsAndDue, stageOf } from "../learning/terms.server";
import { dayMemo, dayMemory, daySummary, learnerDayOf } from "../learning/daily.server";
import { DayPanel } from "../learning/day-panel";
import { StageBadge } from "../learning/ui";
import { STAGES, STUDY_LANGUAGES } from "../learning/vocabulary";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { SignOutEverywhere } from "../auth/sign-out-everywhere";
import { PATHS, termPath } from "../http/paths";
import { planLine } from "../billing/pages.server";
import { PlanLine } from "../billing/ui";
import type { StalenessHandle } from "../edge/staleness";
import { readForm } from "../http/request-body.server";
import { readSettings } from "../learning/settings.server";
import { chooseStudyLanguage } from "../learning/preferences.server";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import {
  answerWelcome,
  nextAction,
  parseWelcomeForm,
  POPULAR_STUDY_LANGUAGES,
  skipWelcome,
  type WelcomeErrors,
  type WelcomeValues,
} from "../learning/welcome.server";
import { NextActionPanel, WelcomeForm } from "../learning/welcome";
import { knownCount } from "../progress/known.server";
import { DEFAULT_TIME_ZONE } from "../learning/time-zone";

/** Kept in memory for the learner until their next write, or until a term falls due or their day ends. */
export const handle: PageHandle & StalenessHandle<Awaited<ReturnType<typeof loader>>> = {
  title: "titles.accountHome",
  staleness: {
    dependsOn: ["learner"],
    changesAt: ({ home }) => (home ? [home.nextDue, home.dayEnds] : []),
    keptForLearner: true,
  },
};

/** The welcome's choices: the most studied languages first, then every study language, by name. */
function welcomeOptions(locale: string) {
  const popular = POPULAR_STUDY_LANGUAGES.map((code) => ({ code, name: studyLanguageName(code, locale) }));
  const others = studyLanguageOptions(STUDY_LANGUAGES, locale).filter(
    (option) => !(POPULAR_STUDY_LANGUAGES as readonly string[]).includes(option.code),
  );
  return { popular, others };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, owner } = requireLearner(context);
  const db = await getDatabase();
  const locale = requestLocale(context);
  if (!user.welcomedAt) {
    const settings = await readSettings(db, user.id);
    const values: WelcomeValues = { studyLanguage: "", level: user.level ?? "", newPerDay: String(settings.newPerDay) };
    return { welcome: { values, ...welcomeOptions(locale) }, home: null };
  }
  // The learner's day, which the header's count reads too; what else depends only on their data and on no card
  // falling due is kept with it between their writes (dayMemo).
  const known = await learnerDayOf(context, db, owner, dayMemory(request, user));
  const now = known.now;
  const [{ counts, nextDue }, recent, knownWords, day, plan] = await Promise.all([
    dayMemo(known, "stageCountsAndDue", () => stageCountsAndDue(db, owner, now)),
    dayMemo(known, "recentTerms", () => recentTerms(db, owner)),
    dayMemo(known, "knownCount", () => knownCount(db, owner, known.settings.timeZone ?? DEFAULT_TIME_ZONE, now)),
    daySummary(db, owner, known),
    planLine(user.id),
  ]);
  const next = await nextAction(db, owner, user.level, day.summary.dueNow);
  return {
    welcome: null,
    home: {
      studyLanguage: owner.language,
      languageName: studyLanguageName(owner.language, locale),
      languageOptions: studyLanguageOptions(STUDY_LANGUAGES, locale),
      level: user.level,
      plan,
      counts,
      knownWords,
      day: day.summary,
      next,
      nextDue,
      dayEnds: day.dayEnds,
      recent: recent.map((term) => ({
        id: term.id,
        text: term.text,
        meaning: term.meaning,
        stage: stageOf(term, now),
      })),
    },
  };
}

/**
 * The welcome's two buttons: "welcome" saves the language, level and new terms per day; "skip" keeps the defaults.
 * Either way My home shows the dashboard from then on (the learner's row changes, so the page kept in memory too).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = requireLearner(context);
  const { t } = getInstance(context);
  const form = await readForm(request);
  const home = new URL(request.url).pathname.replace(/\.data$/, "");
  const db = await getDatabase();
  const intent = form.get("intent");
  if (intent === "skip") {
    await skipWelcome(db, user.id);
    return redirect(home);
  }
  const parsed = parseWelcomeForm(form);
  if (intent !== "welcome" || parsed.errors) {
    const errors: WelcomeErrors = parsed.errors ?? { studyLanguage: "errors.invalidAction" };
    return data({ errors, values: parsed.values }, { status: 400 });
  }
  await answerWelcome(db, user.id, parsed.value);
  const language = studyLanguageName(parsed.value.studyLanguage, requestLocale(context));
  return redirectWithToast(request, home, translatedToast(t, "success", "learning:welcome.saved", { language }), {
    headers: { "Set-Cookie": await chooseStudyLanguage(null, parsed.value.studyLanguage) },
  });
}

export default function AccountHomePage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.welcome) {
    const { welcome } = loaderData;
    return (
      <WelcomeForm
        values={actionData?.values ?? welcome.values}
        errors={actionData?.errors}
        popular={welcome.popular}
        others={welcome.others}
      />
    );
  }
  return <Dashboard home={loaderData.home} />;
}

function Dashboard({ home }: { home: NonNullable<Route.ComponentProps["loaderData"]["home"]> }) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const { counts, day, recent, studyLanguage, level, languageName: language, languageOptions } = home;
  const total = STAGES.reduce((sum, stage) => sum + counts[stage], 0);
  return (
    <section className="home">
      <h1>{t("common:titles.accountHome")}</h1>
      <p className="lead">{t("studyLanguage.current", { language })}</p>

      <NextActionPanel action={home.next} languageName={language} studyLanguage={studyLanguage} />

      <div className="home-rest">
        <PlanLine plan={home.plan} />
        <p className="known-count">
          {t("known.total", { count: home.knownWords.total, language })}{" "}
          <span className="hint">
            {t("known.parts", { words: home.knownWords.words, learned: home.knownWords.learned })}
          </span>
        </p>
        <DayPanel day={day} start={false} />

        <h2>{t("home.stagesTitle")}</h2>
        <ul className="stage-counts">
          {STAGES.map((stage) => (
            <li key={stage} data-stage={stage}>
              <strong>{counts[stage]}</strong>
              <Link to={to(`${PATHS.memberTerms}?stage=${stage}`)}>{t(`stages.${stage}`)}</Link>
            </li>
          ))}
        </ul>
        <p className="actions">
          <Link to={to(PATHS.newTerm)}>{t("home.addTerm")}</Link> ·{" "}
          <Link to={to(PATHS.memberTerms)}>{t("home.allTerms")}</Link> ·{" "}
          <Link to={to(PATHS.publicLists)}>{t("home.browsePublic")}</Link>
        </p>

        <h2>{t("home.recentTitle")}</h2>
        {total === 0 ? (
          <p>{t("home.noTerms", { language })}</p>
        ) : (
          <ul className="link-list">
            {recent.map((term) => (
              <li key={term.id}>
                <Link to={to(termPath(term.id))} lang={studyLanguage}>
                  {term.text}
                </Link>{" "}
                — {term.meaning} <StageBadge stage={term.stage} />
              </li>
            ))}
          </ul>
        )}

        <h2>{t("home.preferencesTitle")}</h2>
        <StudyLanguageForm current={studyLanguage} options={languageOptions} />
        <LevelForm current={level} />
        <SignOutEverywhere />
      </div>
    </section>
  );
}
