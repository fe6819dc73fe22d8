import type { Route } from "./+types/($lang)._default.dictionaries";
import { useTranslation } from "../i18n/use-translation";
import { dictionariesPageData } from "../dictionary/sources-page.server";
import { useLocale } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "reading:titles.dictionaries", description: "reading:descriptions.sources" };

export function loader({ context }: Route.LoaderArgs) {
  return dictionariesPageData(context);
}

/** Where the reader's instant meanings come from: each dictionary loaded, its languages, size and licence. */
export default function DictionariesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("reading");
  const numbers = new Intl.NumberFormat(useLocale());
  return (
    <section className="narrow">
      <h1>{t("titles.dictionaries")}</h1>
      <p className="lead">{t("dictionaries.intro")}</p>
      {loaderData.sources.length === 0 ? (
        <p>{t("dictionaries.none")}</p>
      ) : (
        <div className="table-scroll">
          <table className="dictionary-sources">
            <thead>
              <tr>
                <th scope="col">{t("dictionaries.source")}</th>
                <th scope="col">{t("dictionaries.languages")}</th>
                <th scope="col">{t("dictionaries.entries")}</th>
                <th scope="col">{t("dictionaries.licence")}</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.sources.map((source) => (
                <tr key={source.key}>
                  <th scope="row">{source.url ? <a href={source.url}>{source.title}</a> : source.title}</th>
                  <td>{source.languages}</td>
                  <td>{numbers.format(source.entries)}</td>
                  <td>{source.licence}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>{t("dictionaries.shareAlike")}</p>
    </section>
  );
}
