import css from "../styles.css?inline";

/** The built stylesheet as text, inlined into every document by the server render (see ui/inline-stylesheet.tsx). */
export const stylesheet: string = css;
