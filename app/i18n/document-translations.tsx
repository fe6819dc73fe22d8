import { createContext, useContext } from "react";

const ID = "translations";

/** On the server: the translations the render has used so far (app/i18n/used-namespaces.server.ts). */
export const DocumentTranslationsContext = createContext<(() => Record<string, unknown>) | undefined>(undefined);

let fromDocument: string | undefined;

function documentText(): string {
  return (fromDocument ??= typeof document === "undefined" ? "{}" : (document.getElementById(ID)?.textContent ?? "{}"));
}

/**
 * The current locale's translations the page uses, as JSON inside the document: the browser hydrates with them instead
 * of fetching translation files after its scripts. Rendered after the page, so the page's namespaces are known; the
 * browser renders back what the document holds.
 */
export function DocumentTranslations() {
  const used = useContext(DocumentTranslationsContext);
  const json = used ? jsonOf(used()) : documentText();
  return <script id={ID} type="application/json" dangerouslySetInnerHTML={{ __html: json }} />;
}

/** The server's translations as the document writes them, `<` escaped so no text inside can end the element; once per
 * object (the server hands the same object for the same locale and namespaces). */
const written = new WeakMap<object, string>();
function jsonOf(translations: Record<string, unknown>): string {
  let json = written.get(translations);
  if (json === undefined) written.set(translations, (json = JSON.stringify(translations).replaceAll("<", "\\u003c")));
  return json;
}

/** The translations the server put into the document, by namespace (none if the document has none). */
export function translationsFromDocument(): Record<string, Record<string, unknown>> {
  try {
    return JSON.parse(documentText()) as Record<string, Record<string, unknown>>;
  } catch {
    return {};
  }
}
