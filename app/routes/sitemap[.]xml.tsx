import { env } from "../config/env.server";
import { PUBLIC_PAGES } from "../http/public-pages";
import { alternateLinks } from "../http/seo";
import { LOCALES, localePath } from "../i18n/locales";

/** Every public page in every locale, each with its alternates. */
export function loader() {
  const urls = PUBLIC_PAGES.flatMap((page) => {
    const alternates = alternateLinks(env.APP_URL, page)
      .map((link) => `    <xhtml:link rel="alternate" hreflang="${link.hrefLang}" href="${link.href}"/>`)
      .join("\n");
    return LOCALES.map(
      (locale) => `  <url>\n    <loc>${env.APP_URL}${localePath(locale, page)}</loc>\n${alternates}\n  </url>`,
    );
  });
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
