import { LOAD_ATTRIBUTE, TRANSLATIONS_ID } from "./document-translations";

/**
 * The current locale's translations the page uses, as JSON inside the document: the browser hydrates with them instead
 * of fetching translation files after its scripts (a first visit, on a slow link).
 */
export function translationsInside(translations: Record<string, unknown>) {
  return (
    <script id={TRANSLATIONS_ID} type="application/json" dangerouslySetInnerHTML={{ __html: jsonOf(translations) }} />
  );
}

/**
 * Only the namespaces' names, their built files (and the browser's list of them) preloaded beside the page's scripts
 * (React puts the links into the head): a signed-in learner's browser keeps those files, so each of their pages is
 * lighter by the translations.
 */
export function translationsByFile(namespaces: readonly string[], files: readonly string[]) {
  return (
    <>
      {files.map((file) => (
        <link key={file} rel="modulepreload" href={file} />
      ))}
      <script
        id={TRANSLATIONS_ID}
        type="application/json"
        {...{ [LOAD_ATTRIBUTE]: namespaces.join(" ") }}
        dangerouslySetInnerHTML={{ __html: "{}" }}
      />
    </>
  );
}

/** The server's translations as the document writes them, `<` escaped so no text inside can end the element; once per
 * object (the server hands the same object for the same locale and namespaces). */
const written = new WeakMap<object, string>();
function jsonOf(translations: Record<string, unknown>): string {
  let json = written.get(translations);
  if (json === undefined) written.set(translations, (json = JSON.stringify(translations).replaceAll("<", "\\u003c")));
  return json;
}
