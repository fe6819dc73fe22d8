import { useTranslation } from "../i18n/use-translation";
import { Link } from "react-router";
import type { Route } from "./+types/($lang).account.texts._index";
import { PATHS, textPath } from "../http/paths";
import { useLocale, useLocalePath } from "../i18n/use-locale";
import { textsPageData } from "../reading/texts-page.server";
import { Pager } from "../reading/reading-ui";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

/** Kept in memory for the learner until their next write, a learned term falling due, or texts being counted. */
export const handle: PageHandle & StalenessHandle<Awaited<ReturnType<typeof loader>>> = {
  title: "reading:titles.texts",
  staleness: { dependsOn: ["learner"], changesAt: (data) => [data.changesAt], keptForLearner: true },
};

export function loader({ request, context }: Route.LoaderArgs) {
  return textsPageData(request, context);
}

export default function TextsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("reading");
  const to = useLocalePath();
  const percent = new Intl.NumberFormat(useLocale(), { style: "percent" });
  const { texts, page, pages, counting } = loaderData;
  const number = new Intl.NumberFormat(useLocale());
  const here = to(PATHS.texts);
  return (
    <section>
      <h1>{t("titles.texts")}</h1>
      <p className="lead">{t("list.intro", { language: loaderData.languageName })}</p>
      <p className="actions">
        <Link className="button" to={to(PATHS.newText)}>
          {t("list.add")}
        </Link>{" "}
        <Link to={to(PATHS.sampleTexts)}>{t("list.samples")}</Link>
      </p>
      {texts.length === 0 ? (
        <p className="hint">{t("list.empty")}</p>
      ) : (
        <table className="stacked-table">
          <caption className="visually-hidden">{t("list.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("list.title")}</th>
              <th scope="col">{t("list.words")}</th>
              <th scope="col">{t("list.unknown")}</th>
              <th scope="col">{t("list.known")}</th>
            </tr>
          </thead>
          <tbody>
            {texts.map(({ id, title, stats }) => (
              <tr key={id}>
                <td data-label={t("list.title")}>
                  <Link to={to(textPath(id))}>{title}</Link>
                </td>
                {stats ? (
                  <>
                    <td data-label={t("list.words")}>{number.format(stats.words)}</td>
                    <td data-label={t("list.unknown")}>
                      {number.format(stats.unknown)} ({percent.format(stats.words ? stats.unknown / stats.words : 0)})
                    </td>
                    <td data-label={t("list.known")}>
                      {number.format(stats.known)} ({percent.format(stats.knownShare)})
                    </td>
                  </>
                ) : (
                  <td colSpan={3} className="hint">
                    {t("list.countingOne")}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {counting > 0 ? (
        <p className="hint" role="status">
          {t("list.counting", { count: counting })}
        </p>
      ) : null}
      <Pager page={page} pages={pages} link={(n) => `${here}?page=${n}`} />
    </section>
  );
}
