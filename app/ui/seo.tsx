import { useTranslation } from "react-i18next";
import { useLocation, useMatches, useRouteLoaderData } from "react-router";
import { splitLocale } from "../i18n/locales";
import { alternateLinks, canonicalUrl, pageTitle, titleFromPath } from "../http/seo";

/** What a route module may declare in its `handle`. */
export type PageHandle = { title?: string };

/** `<title>` for a page: its own title, else its last path segment in title case, else the product name. */
export function DocumentTitle() {
  const { t } = useTranslation();
  const matches = useMatches();
  const { path } = splitLocale(useLocation().pathname);
  const key = [...matches].reverse().map((match) => (match.handle as PageHandle | undefined)?.title).find(Boolean);
  return <title>{pageTitle(key ? t(key) : titleFromPath(path))}</title>;
}

/** `<title>` for an error page: the status code plus its message. */
export function ErrorTitle({ status, message }: { status: number; message: string }) {
  return <title>{pageTitle(`${status} ${message}`)}</title>;
}

/** Canonical and alternate-language links of the current page. */
export function LanguageLinks() {
  const location = useLocation();
  const root = useRouteLoaderData<{ origin: string }>("root");
  if (!root) return null;
  const { locale, path } = splitLocale(location.pathname);
  return (
    <>
      <link rel="canonical" href={canonicalUrl(root.origin, locale, path, location.search)} />
      {alternateLinks(root.origin, path).map((link) => (
        <link key={link.hrefLang} rel="alternate" hrefLang={link.hrefLang} href={link.href} />
      ))}
    </>
  );
}
