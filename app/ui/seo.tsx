import { useTranslation } from "../i18n/use-translation";
import { useLocation, useMatches, useRouteLoaderData } from "react-router";
import { splitLocale } from "../i18n/locales";
import { alternateLinks, canonicalUrl, pageTitle, titleFromPath } from "../http/seo";

/** What a route module may declare in its `handle`: translation keys of its title and meta description. */
/**
 * `focus`: a focused activity (the review): the header only leads out of it, and there is no footer; `"sign-out"`
 * also offers the sign-out there (the offline review, whose way out leads to no page that has it while offline).
 */
export type PageHandle = {
  title?: string;
  description?: string;
  /** Or decided by the page's loader data (the review is focused while it shows a card, not on its summary). */
  focus?: boolean | "sign-out" | ((data: unknown) => boolean);
};

/**
 * A loader whose page changes with its state (the confirm page when the link is spent) returns the key of the title
 * that state deserves as `titleKey`; it wins over the handle's.
 */
export type TitleFromData = { titleKey?: string };

/**
 * `<title>` for a page (its own title, else its last path segment in title case, else the product name) and its meta
 * description (its own, else the product's).
 */
export function DocumentTitle() {
  const { t } = useTranslation();
  const matches = useMatches();
  const { path } = splitLocale(useLocation().pathname);
  const deepestFirst = [...matches].reverse();
  const handles = deepestFirst.map((match) => match.handle as PageHandle | undefined);
  const fromData = deepestFirst.map((match) => (match.loaderData as TitleFromData | undefined)?.titleKey);
  const key = [...fromData, ...handles.map((handle) => handle?.title)].find((k) => typeof k === "string" && k);
  const description = handles.map((handle) => handle?.description).find(Boolean) ?? "descriptions.default";
  return (
    <>
      <title>{pageTitle(key ? t(key) : titleFromPath(path))}</title>
      <meta name="description" content={t(description)} />
    </>
  );
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
