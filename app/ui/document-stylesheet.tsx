import { createContext, useContext, useEffect, type ReactNode } from "react";
import { atFirstMove } from "./first-move";

export const STYLESHEET_ID = "stylesheet";
/** On a stylesheet inside the document that holds only the rules the page uses: the whole file's address. */
export const FULL_ATTRIBUTE = "data-full";

/** On the server: the element the render writes (stylesheet.server.tsx). */
export const StylesheetContext = createContext<ReactNode>(undefined);

let fromDocument: { href: string | null; full: string | null; css: string } | undefined;

function readDocument() {
  const element = typeof document === "undefined" ? null : document.getElementById(STYLESHEET_ID);
  return {
    href: element?.getAttribute("href") ?? null,
    full: element?.getAttribute(FULL_ATTRIBUTE) ?? null,
    css: element?.textContent ?? "",
  };
}

let whole: Promise<boolean> | undefined;

/**
 * Links the whole stylesheet once, beside the document's part of it: the next page drawn in the browser may use any
 * rule. Resolves to whether it loaded.
 */
function loadWhole(href: string): Promise<boolean> {
  whole ??= new Promise<boolean>((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = () => resolve(true);
    link.onerror = () => resolve(false);
    document.head.append(link);
  });
  return whole;
}

/**
 * Whether every rule of the stylesheet is in the browser (false: the whole file failed to load), once it is; at once
 * when the document holds or links all of it. A navigation in the browser waits for it (root.tsx).
 */
export function wholeStylesheet(): Promise<boolean> {
  const { full } = (fromDocument ??= readDocument());
  return full ? loadWhole(full) : Promise.resolve(true);
}

/**
 * The stylesheet, inside the document (whole, or the rules the page uses) or linked as the built file
 * (stylesheet.server.tsx); the browser renders back what the document holds, and loads the whole file at the learner's
 * first move when the document held only a part.
 */
export function DocumentStylesheet() {
  const element = useContext(StylesheetContext);
  useEffect(() => {
    if (!(fromDocument ??= readDocument()).full) return;
    // Not during start-up: adding the whole file restyles the page, a long task on a slow phone.
    return atFirstMove(() => void wholeStylesheet());
  }, []);
  if (element) return element;
  const { href, full, css } = (fromDocument ??= readDocument());
  if (href) return <link id={STYLESHEET_ID} rel="stylesheet" href={href} />;
  return (
    <style id={STYLESHEET_ID} {...{ [FULL_ATTRIBUTE]: full ?? undefined }} dangerouslySetInnerHTML={{ __html: css }} />
  );
}
