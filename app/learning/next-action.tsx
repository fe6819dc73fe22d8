import { Link } from "react-router";
import { useTranslation } from "../i18n/use-translation";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS, samplePath, textPath } from "../http/paths";
import type { NextAction } from "./first-lesson.server";

const listPath = (list: { language: string; level: string }) =>
  `${PATHS.publicLists}?${new URLSearchParams({ language: list.language, level: list.level })}`;

/** My home's first block: the one thing to do next, as its only large button, and the starter list beside a text. */
export function NextActionPanel({
  action,
  languageName,
  studyLanguage,
}: {
  action: NextAction;
  languageName: string;
  studyLanguage: string;
}) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  let lead: React.ReactNode;
  let link: { to: string; label: string };
  const title = (text: string) => (
    <strong lang={studyLanguage} className="next-text">
      {text}
    </strong>
  );
  switch (action.kind) {
    case "review":
      lead = t("next.reviewLead", { count: action.count });
      link = { to: to(PATHS.review), label: t("home.startReview") };
      break;
    case "read":
      lead = (
        <>
          {t("next.readLead")} {title(action.title)}
        </>
      );
      link = { to: to(textPath(action.id)), label: t("next.continueReading") };
      break;
    case "lesson":
      lead = (
        <>
          {t("next.lessonLead", { language: languageName })} {title(action.title)}
        </>
      );
      link = { to: to(samplePath(action.slug)), label: t("next.readText") };
      break;
    case "list":
      lead = t("next.listLead", { language: languageName, level: t(`lists:levels.${action.level}`) });
      link = { to: to(listPath(action)), label: t("next.openList") };
      break;
    default:
      lead = t("next.addLead", { language: languageName });
      link = { to: to(PATHS.newTerm), label: t("home.addTerm") };
  }
  const list = action.kind === "read" || action.kind === "lesson" ? action.list : null;
  return (
    <section className="next-action" aria-labelledby="next-action-title" data-next={action.kind}>
      <h2 id="next-action-title">{t("next.title")}</h2>
      <p>{lead}</p>
      <p>
        <Link className="button button-large" to={link.to}>
          {link.label}
        </Link>
      </p>
      {list ? <StarterListLink list={list} language={languageName} /> : null}
    </section>
  );
}

/** The public list of a language at a level, as the words to learn first beside a text. */
export function StarterListLink({ list, language }: { list: { language: string; level: string }; language: string }) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  return (
    <p className="starter-list">
      {t("next.starterLead")}{" "}
      <Link to={to(listPath(list))} data-starter-list={`${list.language}-${list.level}`}>
        {t("next.starterList", { language, level: t(`lists:levels.${list.level}`) })}
      </Link>
    </p>
  );
}
