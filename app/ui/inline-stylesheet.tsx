import { createContext, useContext } from "react";

const ID = "stylesheet";

/** The stylesheet's text, provided by the server render; the browser reads it back from the document it hydrates. */
export const StylesheetContext = createContext<string | undefined>(undefined);

let fromDocument: string | undefined;

/**
 * The whole stylesheet (a few KB) inside the document: the first paint needs no second request, so on a slow link it
 * is not held back by the scripts that share the line.
 */
export function InlineStylesheet() {
  const css =
    useContext(StylesheetContext) ??
    (fromDocument ??= typeof document === "undefined" ? "" : (document.getElementById(ID)?.textContent ?? ""));
  return <style id={ID} dangerouslySetInnerHTML={{ __html: css }} />;
}
