import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/($lang).account.home";
import { getDatabase } from "../db/db.server";
import { requireLearner } from "../learning/learner.server";
import { LevelForm, StudyLanguageForm } from "../learning/preference-forms";
import { studyLanguageName, studyLanguageOptions } from "../learning/study-language";
import { requestLocale } from "../i18n/i18n.server";
import { recentTerms, stageCountsAndDue, stageOf } from "../learning/terms.server";
import { daySummary } from "../learning/daily.server";
import { DayPanel } from "../learning/day-panel";
import { StageBadge } from "../learning/ui";
import { STAGES, STUDY_LANGUAGES } from "../learning/vocabulary";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { SignOutEverywhere } from "../auth/sign-out-everywhere";
import { PATHS, termPath } from "../http/paths";
import { planLine } from "../billing/pages.server";
import { PlanLine } from "../billing/ui";
import { pageChangesAt } from "../http/learner-pages.server";

export const handle: PageHandle = { title: "titles.accountHome" };

export async function loader({ context }: Route.LoaderArgs) {
  const { user, owner } = requireLearner(context);
  const db = await getDatabase();
  const now = new Date();
  const [{ counts, nextDue }, recent, day, plan] = await Promise.all([
    stageCountsAndDue(db, owner, now),
    recentTerms(db, owner),
    daySummary(db, owner, now),
    planLine(user.id),
  ]);
  // Kept in memory for the learner until a write, or until one of these moments changes the page by itself.
  pageChangesAt(context, nextDue);
  pageChangesAt(context, day.dayEnds);
  const locale = requestLocale(context);
  return {
    studyLanguage: owner.language,
    languageName: studyLanguageName(owner.language, locale),
    languageOptions: studyLanguageOptions(STUDY_LANGUAGES, locale),
    level: user.level,
    plan,
    counts,
    day: day.summary,
    recent: recent.map((term) => ({ id: term.id, text: term.text, meaning: term.meaning, stage: stageOf(term, now) })),
  };
}

export default function AccountHomePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const { counts, day, recent, studyLanguage, level, languageName: language, languageOptions } = loaderData;
  const total = STAGES.reduce((sum, stage) => sum + counts[stage], 0);
  return (
    <section>
      <h1>{t("common:titles.accountHome")}</h1>
      <p className="lead">{t("studyLanguage.current", { language })}</p>
      <PlanLine plan={loaderData.plan} />

      <DayPanel day={day} />

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
        <Link className="button" to={to(PATHS.newTerm)}>
          {t("home.addTerm")}
        </Link>{" "}
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
    </section>
  );
}
