import { env } from "../config/env.server";
import { DEFAULT_LOCALE, LOCALES } from "../i18n/locales";

export function loader() {
  const body = [
    "User-agent: *",
    "Disallow: /account/",
    ...LOCALES.filter((l) => l !== DEFAULT_LOCALE).map((l) => `Disallow: /${l}/account/`),
    "",
    `Sitemap: ${env.APP_URL}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
