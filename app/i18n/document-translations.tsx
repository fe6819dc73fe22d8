import { createContext, useContext, type ReactNode } from "react";

export const TRANSLATIONS_ID = "translations";
/** The attribute naming the namespaces the browser loads from their files before hydrating. */
export const LOAD_ATTRIBUTE = "data-load";

/** On the server: the element the render writes (document-translations.server.tsx), once the page is drawn. */
export const DocumentTranslationsContext = createContext<(() => ReactNode) | undefined>(undefined);

let fromDocument: { json: string; load: string | undefined } | undefined;

function readDocument() {
  const element = typeof document === "undefined" ? null : document.getElementById(TRANSLATIONS_ID);
  return { json: element?.textContent ?? "{}", load: element?.getAttribute(LOAD_ATTRIBUTE) ?? undefined };
}

/**
 * The page's translations for the browser: inside the document as JSON, or named for the browser to load from their
 * files (document-translations.server.tsx). Rendered after the page, so the page's namespaces are known; the browser
 * renders back what the document holds.
 */
export function DocumentTranslations() {
  const render = useContext(DocumentTranslationsContext);
  if (render) return render();
  const { json, load } = (fromDocument ??= readDocument());
  return (
    <script id={TRANSLATIONS_ID} type="application/json" data-load={load} dangerouslySetInnerHTML={{ __html: json }} />
  );
}

/** The translations the server put into the document, by namespace (none if the document has none). */
export function translationsFromDocument(): Record<string, Record<string, unknown>> {
  try {
    return JSON.parse((fromDocument ??= readDocument()).json) as Record<string, Record<string, unknown>>;
  } catch {
    return {};
  }
}

/** The namespaces the document asks the browser to load from their files (none if it carries them inside). */
export function namespacesToLoad(): string[] {
  return (fromDocument ??= readDocument()).load?.split(" ") ?? [];
}
