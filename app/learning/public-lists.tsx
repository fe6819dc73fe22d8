import { useTranslation } from "../i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import { useLocalePath } from "../i18n/use-locale";
import { capitalize } from "../i18n/format";
import type { publicPageData } from "./public-page.server";
import { PATHS } from "../http/paths";
import { LEVELS } from "./vocabulary";
import { SubmitWithoutScript, useSubmitOnChange } from "../ui/submit-on-change";

type Data = Awaited<ReturnType<typeof publicPageData>>;

/** Public word lists: choose a language and level (GET form), browse, and add one term or the whole list. */
export function PublicLists({ data, title }: { data: Data; title: string }) {
  const { t, i18n } = useTranslation("lists");
  const to = useLocalePath();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const submitOnChange = useSubmitOnChange({ preventScrollReset: true });
  const languages = [...new Set(data.lists.map((list) => list.language))];
  if (!languages.includes(data.language)) languages.unshift(data.language);
  const name = (code: string) => data.names[code] ?? code;
  /** A language name that starts a heading or a list item. */
  const heading = (code: string) => capitalize(name(code), i18n.language);
  const allAdded = data.terms.length > 0 && data.terms.every((term) => term.mine?.owned);
  // Per language, the levels in learning order (Beginner → Expert).
  const lists = [...data.lists].sort(
    (a, b) => a.language.localeCompare(b.language) || LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level),
  );
  const hidden = (
    <>
      <input type="hidden" name="language" value={data.language} />
      <input type="hidden" name="level" value={data.level} />
    </>
  );
  return (
    <section>
      <h1>{title}</h1>
      <p className="lead">{t("public.intro")}</p>
      <Form method="get" className="filters">
        <div>
          <label htmlFor="public-language">{t("public.languageLabel")}</label>
          <select
            id="public-language"
            name="language"
            defaultValue={data.language}
            key={data.language}
            onChange={submitOnChange}
          >
            {languages.map((code) => (
              <option key={code} value={code}>
                {heading(code)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="public-level">{t("public.levelLabel")}</label>
          <select id="public-level" name="level" defaultValue={data.level} key={data.level} onChange={submitOnChange}>
            {data.levels.map((level) => (
              <option key={level} value={level}>
                {t(`levels.${level}`)}
              </option>
            ))}
          </select>
        </div>
        <SubmitWithoutScript className="button">{t("public.show")}</SubmitWithoutScript>
      </Form>
      <details>
        <summary>{t("public.available")}</summary>
        <ul>
          {lists.map((list) => (
            <li key={`${list.language}-${list.level}`}>
              <Link to={`?language=${list.language}&level=${list.level}`}>
                {t("public.listTitle", { language: heading(list.language), level: t(`levels.${list.level}`) })}
              </Link>{" "}
              <span className="hint">({t("terms", { count: list.terms })})</span>
            </li>
          ))}
        </ul>
      </details>
      <h2>{t("public.listTitle", { language: heading(data.language), level: t(`levels.${data.level}`) })}</h2>
      {data.terms.length === 0 ? (
        <p>{t("public.noList", { language: name(data.language) })}</p>
      ) : (
        <>
          {data.signedIn && allAdded ? (
            <p>
              <button type="button" className="button button-secondary" disabled>
                {t("public.allAdded")}
              </button>
            </p>
          ) : data.signedIn ? (
            <Form method="post" aria-busy={pending}>
              {hidden}
              <button type="submit" name="intent" value="addAll" className="button" disabled={pending}>
                {t("public.addAll")}
              </button>
            </Form>
          ) : (
            <p>
              <Link to={to(PATHS.signIn)}>{t("public.signInToAdd")}</Link>
            </p>
          )}
          <ul className="word-list">
            {data.terms.map((term) => (
              <li key={term.text} className="word-row">
                <p className="word-line">
                  <span className="word-term" lang={data.language}>
                    {term.text}
                  </span>{" "}
                  <span className="word-meaning">{term.meaning}</span>{" "}
                  <span className="pos-tag">{t(`partsOfSpeech.${term.partOfSpeech}`)}</span>
                </p>
                <p className="word-example">
                  <span lang={data.language}>{term.sentence}</span>
                  {term.translation ? <span className="hint"> — {term.translation}</span> : null}
                </p>
                {term.mine ? (
                  <div className="word-action">
                    {term.mine.owned ? (
                      <span className="owned">{t("public.owned")}</span>
                    ) : (
                      <Form method="post">
                        {hidden}
                        <input type="hidden" name="termId" value={term.mine.id} />
                        <button
                          type="submit"
                          name="intent"
                          value="add"
                          className="button button-small button-secondary word-add"
                          disabled={pending}
                          aria-label={`${t("public.add")}: ${term.text}`}
                        >
                          {t("public.add")}
                        </button>
                      </Form>
                    )}
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
