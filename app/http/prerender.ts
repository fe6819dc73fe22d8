import { LOCALES, localePath } from "../i18n/locales";

/** Pages whose content changes only with a release; they are rendered at build time in every locale. */
export const PRERENDERED_PAGES = ["/company/privacy", "/company/terms-of-use", "/crowdfunding-campaign"];

export function prerenderedPaths(): string[] {
  return PRERENDERED_PAGES.flatMap((page) => LOCALES.map((locale) => localePath(locale, page)));
}
