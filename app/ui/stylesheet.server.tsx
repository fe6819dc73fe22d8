import css from "../styles.css?inline";
import href from "../styles.css?url";
import { STYLESHEET_ID } from "./document-stylesheet";

/**
 * The whole stylesheet inside the document: the first paint needs no second request, so on a slow link it is not held
 * back by the scripts that share the line (a first visit).
 */
export const stylesheetInside = <style id={STYLESHEET_ID} dangerouslySetInnerHTML={{ __html: css }} />;

/**
 * The built stylesheet's file (hashed, kept by the browser): a signed-in learner's pages link it, each ~35 KB lighter to
 * draw, compress and read.
 */
export const stylesheetLinked = <link id={STYLESHEET_ID} rel="stylesheet" href={href} />;
