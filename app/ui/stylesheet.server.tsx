import css from "../styles.css?inline";
import href from "../styles.css?url";
import { FULL_ATTRIBUTE, STYLESHEET_ID } from "./document-stylesheet";
import { documentClasses, stylesheetSubsets } from "./stylesheet-subset.server";

/**
 * The whole stylesheet inside the document: the first paint needs no second request, so on a slow link it is not held
 * back by the scripts that share the line (the offline review's stored copy of a page, which must stand on its own).
 */
export const stylesheetInside = <style id={STYLESHEET_ID} dangerouslySetInnerHTML={{ __html: css }} />;

/**
 * The stylesheet inside a first visit's document, cut to the rules the document uses once it is drawn
 * (`withStylesheetSubset`), naming the whole file the browser loads after hydrating (document-stylesheet.tsx).
 */
export const stylesheetSubset = (
  <style id={STYLESHEET_ID} {...{ [FULL_ATTRIBUTE]: href }} dangerouslySetInnerHTML={{ __html: css }} />
);

/**
 * The built stylesheet's file (hashed, kept by the browser): a signed-in learner's pages link it, each ~35 KB lighter to
 * draw, compress and read.
 */
export const stylesheetLinked = <link id={STYLESHEET_ID} rel="stylesheet" href={href} />;

const subsetOf = stylesheetSubsets(css);

/** A drawn document holding `stylesheetSubset`, with only the rules its elements' classes use. */
export function withStylesheetSubset(html: string): string {
  const start = html.indexOf(css);
  if (start === -1) return html;
  const end = start + css.length;
  const classes = documentClasses(html.slice(0, start));
  for (const name of documentClasses(html.slice(end))) classes.add(name);
  return html.slice(0, start) + subsetOf(classes) + html.slice(end);
}
