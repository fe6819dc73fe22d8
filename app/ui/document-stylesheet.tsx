import { createContext, useContext, type ReactNode } from "react";

export const STYLESHEET_ID = "stylesheet";

/** On the server: the element the render writes (stylesheet.server.tsx). */
export const StylesheetContext = createContext<ReactNode>(undefined);

let fromDocument: { href: string | null; css: string } | undefined;

function readDocument() {
  const element = typeof document === "undefined" ? null : document.getElementById(STYLESHEET_ID);
  return { href: element?.getAttribute("href") ?? null, css: element?.textContent ?? "" };
}

/**
 * The stylesheet, inside the document or linked as the built file (stylesheet.server.tsx); the browser renders back
 * what the document holds.
 */
export function DocumentStylesheet() {
  const element = useContext(StylesheetContext);
  if (element) return element;
  const { href, css } = (fromDocument ??= readDocument());
  if (href) return <link id={STYLESHEET_ID} rel="stylesheet" href={href} />;
  return <style id={STYLESHEET_ID} dangerouslySetInnerHTML={{ __html: css }} />;
}
