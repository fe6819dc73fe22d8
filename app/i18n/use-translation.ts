import { useContext } from "react";
import type { i18n as I18n } from "i18next";
import { I18nContext, useTranslation as useReactI18nextTranslation } from "react-i18next";
import type { Namespace } from "./locales";

type Translation = ReturnType<typeof useReactI18nextTranslation>;
const rendered = new WeakMap<I18n, Map<string, Translation>>();

/**
 * One `t` per namespace for a whole server render. On the server each component is mounted once, and react-i18next's
 * hook wraps the i18n instance anew for each of them (a copy of its ~40 properties, about 0.25 ms a call, several ms
 * a page). A server render has its own instance (one request, one language that never changes), so the same answer
 * serves every component: `i18n.getFixedT(null, namespace)`, as react-i18next's hook builds it.
 */
function useServerTranslation(namespace?: string): Translation {
  const { i18n } = useContext(I18nContext);
  let byNamespace = rendered.get(i18n);
  if (!byNamespace) rendered.set(i18n, (byNamespace = new Map()));
  let found = byNamespace.get(namespace ?? "");
  if (!found) {
    const defaultNamespace = i18n.options.defaultNS;
    const t = i18n.getFixedT(null, namespace ?? (typeof defaultNamespace === "string" ? defaultNamespace : "common"));
    found = Object.assign([t, i18n, true], { t, i18n, ready: true }) as unknown as Translation;
    byNamespace.set(namespace ?? "", found);
  }
  return found;
}

/**
 * react-i18next's `useTranslation` with a namespace (or the default one). In the browser it is react-i18next's own
 * hook (it follows language changes); on the server, the cheaper one above. Either is chosen once, when the module
 * loads, so a component always calls the same hooks in one place.
 */
export const useTranslation = (typeof document === "undefined" ? useServerTranslation : useReactI18nextTranslation) as (
  namespace?: Namespace,
) => Translation;
