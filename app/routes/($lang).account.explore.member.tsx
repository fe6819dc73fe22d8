import { useTranslation } from "../i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/($lang).account.explore.member";
import { getDatabase } from "../db/db.server";
import { requestLocale } from "../i18n/i18n.server";
import { requireLearner } from "../learning/learner.server";
import { studyLanguageName } from "../learning/study-language";
import { searchTerms, stageCounts, type TermQuery } from "../learning/terms.server";
import { StageBadge } from "../learning/ui";
import { isPartOfSpeech, isStage, PARTS_OF_SPEECH, SORTS, STAGES, type Sort } from "../learning/vocabulary";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { PATHS, termPath } from "../http/paths";
import type { StalenessHandle } from "../edge/staleness";

/** Kept in memory for the learner until their next write, or until a term falls due (its stage badge changes). */
export const handle: PageHandle & StalenessHandle<Awaited<ReturnType<typeof loader>>> = {
  title: "titles.member",
  staleness: { dependsOn: ["learner"], changesAt: (data) => [data.nextDue], keptForLearner: true },
};

/** Reads the GET form; anything unknown falls back to "any" so a shared link never fails. */
function parseQuery(url: URL): TermQuery {
  const params = url.searchParams;
  const stage = params.get("stage");
  const pos = params.get("pos");
  const sort = params.get("sort");
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  return {
    // PostgreSQL refuses NUL in a string.
    q: (params.get("q") ?? "").replaceAll("\u0000", "").trim().slice(0, 200),
    stage: isStage(stage) ? stage : null,
    pos: isPartOfSpeech(pos) ? pos : null,
    sort: SORTS.includes(sort as Sort) ? (sort as Sort) : "newest",
    page: Number.isFinite(page) && page > 0 ? Math.min(page, 100_000) : 1,
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { owner } = requireLearner(context);
  const db = await getDatabase();
  const query = parseQuery(new URL(request.url));
  const now = new Date();
  let stages: Awaited<ReturnType<typeof stageCounts>>;
  let result: Awaited<ReturnType<typeof searchTerms>>;
  if (query.q || query.pos) {
    [result, stages] = await Promise.all([searchTerms(db, owner, query, now), stageCounts(db, owner, now)]);
  } else {
    // Filtered by stage at most: the stage counts already say how many terms match.
    stages = await stageCounts(db, owner, now);
    const { counts } = stages;
    const total = query.stage ? counts[query.stage] : Object.values(counts).reduce((sum, n) => sum + n, 0);
    result = await searchTerms(db, owner, query, now, total);
  }
  return {
    query,
    counts: stages.counts,
    nextDue: stages.nextDue,
    language: owner.language,
    languageName: studyLanguageName(owner.language, requestLocale(context)),
    ...result,
  };
}

export default function MemberExplorePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const navigation = useNavigation();
  const pending = navigation.state === "loading" && navigation.location?.pathname === to(PATHS.memberTerms);
  const { query, counts, rows, total, pages, language } = loaderData;
  const pageLink = (page: number) => {
    const params = new URLSearchParams();
    if (query.q) params.set("q", query.q);
    if (query.stage) params.set("stage", query.stage);
    if (query.pos) params.set("pos", query.pos);
    if (query.sort !== "newest") params.set("sort", query.sort);
    params.set("page", String(page));
    return `?${params}`;
  };
  const labels = {
    text: t("member.columns.text"),
    meaning: t("member.columns.meaning"),
    partOfSpeech: t("member.columns.partOfSpeech"),
    stage: t("member.columns.stage"),
    examples: t("member.columns.examples"),
  };
  return (
    <section>
      <h1>{t("common:titles.member")}</h1>
      <p className="lead">{t("studyLanguage.current", { language: loaderData.languageName })}</p>
      <ul className="stage-counts">
        {STAGES.map((stage) => (
          <li key={stage} data-stage={stage}>
            <strong>{counts[stage]}</strong>
            <Link to={`?stage=${stage}`}>{t(`stages.${stage}`)}</Link>
          </li>
        ))}
      </ul>
      <Form method="get" className="filters" role="search" aria-busy={pending}>
        <div>
          <label htmlFor="q">{t("member.searchLabel")}</label>
          <input id="q" name="q" type="search" defaultValue={query.q} key={query.q} />
        </div>
        <div>
          <label htmlFor="stage-filter">{t("member.stageFilter")}</label>
          <select id="stage-filter" name="stage" defaultValue={query.stage ?? ""} key={query.stage ?? ""}>
            <option value="">{t("member.any")}</option>
            {STAGES.map((stage) => (
              <option key={stage} value={stage}>
                {t(`stages.${stage}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="pos-filter">{t("member.posFilter")}</label>
          <select id="pos-filter" name="pos" defaultValue={query.pos ?? ""} key={query.pos ?? ""}>
            <option value="">{t("member.any")}</option>
            {PARTS_OF_SPEECH.map((pos) => (
              <option key={pos} value={pos}>
                {t(`lists:partsOfSpeech.${pos}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="sort">{t("member.sort")}</label>
          <select id="sort" name="sort" defaultValue={query.sort} key={query.sort}>
            {SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {t(`member.sorts.${sort}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t("member.apply")}
        </button>
      </Form>
      <p role="status">{t("member.results", { count: total })}</p>
      {rows.length === 0 ? (
        <p>{t("member.empty")}</p>
      ) : (
        <table className="stacked-table">
          <thead>
            <tr>
              <th scope="col">{labels.text}</th>
              <th scope="col">{labels.meaning}</th>
              <th scope="col">{labels.partOfSpeech}</th>
              <th scope="col">{labels.stage}</th>
              <th scope="col">{labels.examples}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td data-label={labels.text}>
                  <Link to={to(termPath(row.id))} lang={language}>
                    {row.text}
                  </Link>
                </td>
                <td data-label={labels.meaning}>{row.meaning}</td>
                <td data-label={labels.partOfSpeech}>
                  {row.partOfSpeech ? t(`lists:partsOfSpeech.${row.partOfSpeech}`) : ""}
                </td>
                <td data-label={labels.stage}>
                  <StageBadge stage={row.stage} />
                </td>
                <td data-label={labels.examples}>{t("examples", { count: row.examples })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 ? (
        <nav className="pagination" aria-label={t("member.pagination")}>
          {query.page > 1 ? (
            <Link to={pageLink(query.page - 1)} rel="prev">
              {t("member.previous")}
            </Link>
          ) : null}
          <span>{t("member.page", { page: query.page, pages })}</span>
          {query.page < pages ? (
            <Link to={pageLink(query.page + 1)} rel="next">
              {t("member.next")}
            </Link>
          ) : null}
        </nav>
      ) : null}
      <p>
        <Link className="button" to={to(PATHS.newTerm)}>
          {t("home.addTerm")}
        </Link>
      </p>
    </section>
  );
}
