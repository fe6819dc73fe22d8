import type { RouterContextProvider } from "react-router";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { studyLanguageName } from "../learning/study-language";
import { LIST_SOURCE } from "./builtin.server";
import { listSources } from "./entries.server";

/**
 * The sources page: one section per dictionary, its directions ("German → English and French"), the entries counted
 * over them. The built-in word lists are named in the interface language; a loaded dictionary by the title it was
 * imported with.
 */
export async function dictionariesPageData(context: Readonly<RouterContextProvider>) {
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const name = (code: string) => studyLanguageName(code, locale);
  const grouped = new Map<
    string,
    { title: string; url: string; licence: string; entries: number; pairs: Map<string, string[]> }
  >();
  for (const source of await listSources(await getDatabase())) {
    const own = source.name === LIST_SOURCE;
    const group = grouped.get(source.name) ?? {
      title: own ? t("reading:dictionaries.ownLists") : source.title,
      url: source.url,
      licence: own ? t("reading:dictionaries.ownLicence") : source.licence,
      entries: 0,
      pairs: new Map(),
    };
    group.entries += source.entries;
    group.pairs.set(source.from, [...(group.pairs.get(source.from) ?? []), name(source.to)]);
    grouped.set(source.name, group);
  }
  const list = new Intl.ListFormat(locale, { type: "conjunction" });
  return {
    sources: [...grouped.entries()].map(([key, group]) => {
      // Sources with the same targets in one line: "German, English and Italian → German, English, … and Chinese".
      const byTargets = new Map<string, string[]>();
      for (const [from, targets] of group.pairs) {
        const line = list.format(targets);
        byTargets.set(line, [...(byTargets.get(line) ?? []), name(from)]);
      }
      return {
        key,
        title: group.title,
        url: group.url,
        licence: group.licence,
        entries: group.entries,
        languages: [...byTargets.entries()].map(([targets, froms]) => `${list.format(froms)} → ${targets}`),
      };
    }),
  };
}
