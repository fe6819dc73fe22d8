import { useTranslation } from "../i18n/use-translation";
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/($lang).account.home";
import { getDatabase } from "../db/db.server";
import { requireLearner } from "../learning/learner.server";
import { studyLanguageName, studyLanguageOptions } from "../learning/study-language";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { recentTerms, stageCountsAndDue, stageOf } from "../learning/terms.server";
import { dayMemo, dayMemory, daySummary, learnerDayOf } from "../learning/daily.server";
import { StageBadge } from "../learning/ui";
import { STAGES, STUDY_LANGUAGES } from "../learning/vocabulary";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { PATHS, termPath, textPath } from "../http/paths";
import type { StalenessHandle } from "../edge/staleness";
import { readForm } from "../http/request-body.server";
import { chooseStudyLanguage, saveLevel } from "../learning/preferences.server";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import {
  finishWelcome,
  languageQuery,
  POPULAR_STUDY_LANGUAGES,
  skipWelcome,
  welcomeStepOf,
} from "../learning/welcome.server";
import { foldForSearch, Welcome, type LanguageOption } from "../learning/welcome";
import { NextActionPanel } from "../learning/next-action";
import { nextAction, startFirstLesson } from "../learning/first-lesson.server";
import { GoalMeter } from "../learning/daily-goal";
import { parseDailyGoal } from "../learning/daily-limits";
import { isLevel, isStudyLanguage } from "../learning/vocabulary";
import { localePath } from "../i18n/locales";
import { BrowserTimeZone } from "../learning/browser-time-zone";
import { users } from "../auth/auth.schema";
import { eq } from "drizzle-orm";
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

/** A language's name in itself ("Deutsch", "日本語"), for the welcome's search; none when the runtime has none. */
function ownName(code: string): string {
  try {
    return new Intl.DisplayNames([code], { type: "language" }).of(code) ?? "";
  } catch {
    return "";
  }
}

/** The welcome's choices: the most studied languages first, then every study language, by name. */
function welcomeOptions(locale: string) {
  const option = (code: string, name: string): LanguageOption => ({
    code,
    name,
    search: foldForSearch(`${name} ${ownName(code)} ${code}`),
  });
  const popular = POPULAR_STUDY_LANGUAGES.map((code) => option(code, studyLanguageName(code, locale)));
  const others = studyLanguageOptions(STUDY_LANGUAGES, locale)
    .filter((each) => !(POPULAR_STUDY_LANGUAGES as readonly string[]).includes(each.code))
    .map((each) => option(each.code, each.name));
  return { popular, others };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, owner } = requireLearner(context);
  const db = await getDatabase();
  const locale = requestLocale(context);
  if (!user.welcomedAt) {
    const params = new URL(request.url).searchParams;
    const step = welcomeStepOf(params.get("step"));
    const known = await learnerDayOf(context, db, owner, dayMemory(request, user));
    const welcome = {
      step,
      // No language is chosen for the learner on the first screen; coming back to it shows their answer.
      values: {
        studyLanguage: params.has("step") ? owner.language : "",
        level: user.level ?? "",
        goal: known.settings.dailyGoalMinutes,
      },
      languageName: studyLanguageName(owner.language, locale),
      query: languageQuery(params.get("q")),
      ...welcomeOptions(locale),
    };
    return { welcome, home: null };
  }
  // The learner's day, which the header's count reads too; what else depends only on their data and on no card
  // falling due is kept with it between their writes (dayMemo).
  const known = await learnerDayOf(context, db, owner, dayMemory(request, user));
  const now = known.now;
  const [{ counts, nextDue }, recent, knownWords, day] = await Promise.all([
    dayMemo(known, "stageCountsAndDue", () => stageCountsAndDue(db, owner, now)),
    dayMemo(known, "recentTerms", () => recentTerms(db, owner)),
    dayMemo(known, "knownCount", () => knownCount(db, owner, known.settings.timeZone ?? DEFAULT_TIME_ZONE, now)),
    daySummary(db, owner, known),
  ]);
  const next = await nextAction(db, owner, user.level, day.summary.dueNow);
  return {
    welcome: null,
    home: {
      studyLanguage: owner.language,
      languageName: studyLanguageName(owner.language, locale),
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
 * The welcome's steps, each a plain POST that saves its answer and redirects to the next step: "language" (the study
 * language, on the learner's row and in the cookie), "level", then "goal" (the daily goal; the welcome is done and the
 * learner lands in the first lesson). "skip" keeps the defaults. A refused answer comes back with a 400 and its message.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { user, owner } = requireLearner(context);
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const form = await readForm(request);
  const home = new URL(request.url).pathname.replace(/\.data$/, "");
  const db = await getDatabase();
  const value = (name: string) => String(form.get(name) ?? "").trim();
  const refused = (error: string) => data({ error }, { status: 400 });
  switch (form.get("intent")) {
    case "skip":
      await skipWelcome(db, user.id);
      return redirect(home);
    case "language": {
      const code = value("studyLanguage");
      if (!isStudyLanguage(code)) return refused("errors.invalidLanguage");
      return redirect(`${home}?step=level`, { headers: { "Set-Cookie": await chooseStudyLanguage(user, code) } });
    }
    case "level": {
      const level = value("level");
      if (!isLevel(level)) return refused("errors.invalidLevel");
      await saveLevel(db, user.id, level);
      return redirect(`${home}?step=goal`);
    }
    case "goal": {
      const minutes = parseDailyGoal(value("goal"), value("goalOwn"));
      if (minutes === null) return refused("goal.errors.invalid");
      await finishWelcome(db, user.id, minutes);
      // The level as the step before saved it (the session's copy of the learner's row may predate it).
      const [row] = await db.select({ level: users.level }).from(users).where(eq(users.id, user.id));
      const lesson = await startFirstLesson(db, user.id, owner.language, row?.level ?? null);
      const language = studyLanguageName(owner.language, locale);
      if (lesson.kind === "text")
        return redirectWithToast(
          request,
          localePath(locale, textPath(lesson.id)),
          translatedToast(t, "success", "learning:welcome.lesson", { language }),
        );
      const lists =
        lesson.kind === "list"
          ? `${PATHS.publicLists}?${new URLSearchParams({ language: lesson.language, level: lesson.level })}`
          : PATHS.publicLists;
      return redirectWithToast(
        request,
        localePath(locale, lists),
        translatedToast(t, "info", lesson.kind === "list" ? "learning:welcome.noText" : "learning:welcome.nothingYet", {
          language,
        }),
      );
    }
    default:
      return refused("errors.invalidAction");
  }
}

export default function AccountHomePage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.welcome) return <Welcome {...loaderData.welcome} error={actionData?.error} />;
  return <Dashboard home={loaderData.home} />;
}

function Dashboard({ home }: { home: NonNullable<Route.ComponentProps["loaderData"]["home"]> }) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const { counts, day, recent, studyLanguage, languageName: language } = home;
  const total = STAGES.reduce((sum, stage) => sum + counts[stage], 0);
  return (
    <section className="home">
      <h1>{t("common:titles.accountHome")}</h1>
      <p className="lead">{t("studyLanguage.current", { language })}</p>

      <NextActionPanel action={home.next} languageName={language} studyLanguage={studyLanguage} />

      <section className="home-day" aria-labelledby="home-day-title">
        <h2 id="home-day-title">{t("goal.todayTitle")}</h2>
        <GoalMeter goal={day.goal} />
        <p className="streak">{t("statistics.streak", { count: day.streak })}</p>
        <p className="known-count">
          {t("known.total", { count: home.knownWords.total, language })}{" "}
          <span className="hint">
            {t("known.parts", { words: home.knownWords.words, learned: home.knownWords.learned })}
          </span>
        </p>
        <p className="hint">
          <Link to={to(PATHS.settings)}>{t("goal.change")}</Link> ·{" "}
          <Link to={to(PATHS.statistics)}>{t("common:titles.statistics")}</Link>
        </p>
        {day.timeZoneChosen ? null : <BrowserTimeZone action={to(PATHS.settings)} />}
      </section>

      <div className="home-rest">
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
      </div>
    </section>
  );
}
