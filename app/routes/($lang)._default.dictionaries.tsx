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
      {loaderData.sources.length === 0 ? <p>{t("dictionaries.none")}</p> : null}
      {loaderData.sources.map((source) => (
        <section key={source.key} className="dictionary-source" aria-labelledby={`source-${source.key}`}>
          <h2 id={`source-${source.key}`}>{source.url ? <a href={source.url}>{source.title}</a> : source.title}</h2>
          <dl>
            <dt>{t("dictionaries.languages")}</dt>
            {source.languages.map((line) => (
              <dd key={line}>{line}</dd>
            ))}
            <dt>{t("dictionaries.entries")}</dt>
            <dd>{numbers.format(source.entries)}</dd>
            <dt>{t("dictionaries.licence")}</dt>
            <dd>{source.licence}</dd>
          </dl>
        </section>
      ))}
      <p>{t("dictionaries.shareAlike")}</p>
    </section>
  );
}
