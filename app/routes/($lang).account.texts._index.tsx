import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/($lang).account.texts._index";
import { PATHS, textPath } from "../http/paths";
import { useLocale, useLocalePath } from "../i18n/use-locale";
import { textsPageData } from "../reading/texts-page.server";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "reading:titles.texts" };

export function loader({ context }: Route.LoaderArgs) {
  return textsPageData(context);
}

export default function TextsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("reading");
  const to = useLocalePath();
  const percent = new Intl.NumberFormat(useLocale(), { style: "percent" });
  const { texts } = loaderData;
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
            {texts.map((text) => (
              <tr key={text.id}>
                <td data-label={t("list.title")}>
                  <Link to={to(textPath(text.id))}>{text.title}</Link>
                </td>
                <td data-label={t("list.words")}>{text.stats.words}</td>
                <td data-label={t("list.unknown")}>
                  {text.stats.unknown} ({percent.format(text.stats.words ? text.stats.unknown / text.stats.words : 0)})
                </td>
                <td data-label={t("list.known")}>
                  {text.stats.known} ({percent.format(text.stats.knownShare)})
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
