/**
 * The part of the stylesheet a rendered document uses: its rules whose classes the document's elements carry. A first
 * visit's document carries its stylesheet inside (for the first paint on a slow link, stylesheet.server.tsx); with only
 * the rules it uses, a public page's stylesheet is ~3 KB on the wire instead of ~6.5 KB. The browser loads the whole
 * built file at the learner's first move, and before it draws any page itself (document-stylesheet.tsx).
 *
 * A rule stays when one of its selectors names only classes the document has; classes inside `:not()`, `:is()`,
 * `:where()` and `:has()` do not count, nor do tag names, attributes, ids and states, so a rule is never dropped for
 * what a page has but the selector does not show plainly. At-rules holding rules (`@media`, `@supports`, `@layer`,
 * `@container`) keep the rules that stay and go when none does; any other at-rule (`@keyframes`, `@font-face`) stays.
 */

type Item =
  | { kind: "rule"; text: string; needs: string[][] }
  | { kind: "group"; prelude: string; items: Item[] }
  | { kind: "other"; text: string };

const GROUPING_AT_RULES = /^@(media|supports|layer|container)\b/;
const FUNCTIONAL_PSEUDO = /:(not|is|where|has)\(/g;

/** The index just past the next `what` from `from`, or the end of the text when there is none. */
function past(text: string, what: string, from: number): number {
  const at = text.indexOf(what, from);
  return at === -1 ? text.length : at + what.length;
}

/** The index after the `}` closing the block that opens at `open` (a `{`), past strings and comments. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") i = stringEnd(css, i);
    else if (c === "/" && css[i + 1] === "*") i = past(css, "*/", i + 2) - 1;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  return css.length;
}

function stringEnd(text: string, quote: number): number {
  for (let i = quote + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === text[quote]) return i;
  }
  return text.length;
}

/** What a selector leaves when strings, attribute selectors and functional pseudo-classes are taken out. */
function plain(selector: string): string {
  let out = "";
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (c === '"' || c === "'") i = stringEnd(selector, i);
    else if (c === "[") i = past(selector, "]", i) - 1;
    else out += c;
  }
  // Each functional pseudo-class with what it holds (nested ones included).
  for (;;) {
    FUNCTIONAL_PSEUDO.lastIndex = 0;
    const found = FUNCTIONAL_PSEUDO.exec(out);
    if (!found) return out;
    let depth = 0;
    let end = found.index + found[0].length - 1;
    for (; end < out.length; end++) {
      if (out[end] === "(") depth++;
      else if (out[end] === ")" && --depth === 0) break;
    }
    out = out.slice(0, found.index) + out.slice(end + 1);
  }
}

/** A selector list split at its top-level commas. */
function alternatives(selectors: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selectors.length; i++) {
    const c = selectors[i];
    if (c === '"' || c === "'") i = stringEnd(selectors, i);
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "," && depth === 0) {
      parts.push(selectors.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(selectors.slice(start));
  return parts;
}

const CLASS_NAME = /\.(-?[_a-zA-Z][\w-]*)/g;

/** For each selector of a rule, the classes it names plainly. */
function classesNeeded(selectors: string): string[][] {
  return alternatives(selectors).map((selector) => [...plain(selector).matchAll(CLASS_NAME)].map((m) => m[1]!));
}

function parse(css: string): Item[] {
  const items: Item[] = [];
  let i = 0;
  while (i < css.length) {
    while (i < css.length && /\s/.test(css[i]!)) i++;
    if (i >= css.length) break;
    if (css.startsWith("/*", i)) {
      i = past(css, "*/", i + 2);
      continue;
    }
    const open = css.indexOf("{", i);
    const semicolon = css.indexOf(";", i);
    // A statement at-rule (`@import`, `@charset`, `@layer a, b;`).
    if (css[i] === "@" && semicolon !== -1 && (open === -1 || semicolon < open)) {
      items.push({ kind: "other", text: css.slice(i, semicolon + 1) });
      i = semicolon + 1;
      continue;
    }
    if (open === -1) {
      items.push({ kind: "other", text: css.slice(i) });
      break;
    }
    const end = blockEnd(css, open);
    const prelude = css.slice(i, open).trim();
    if (GROUPING_AT_RULES.test(prelude)) {
      items.push({ kind: "group", prelude, items: parse(css.slice(open + 1, end - 1)) });
    } else if (prelude.startsWith("@")) {
      items.push({ kind: "other", text: css.slice(i, end) });
    } else {
      items.push({ kind: "rule", text: css.slice(i, end), needs: classesNeeded(prelude) });
    }
    i = end;
  }
  return items;
}

function write(items: Item[], has: (name: string) => boolean): string {
  let out = "";
  for (const item of items) {
    if (item.kind === "other") out += item.text;
    else if (item.kind === "rule") {
      if (item.needs.some((names) => names.every(has))) out += item.text;
    } else {
      const inner = write(item.items, has);
      if (inner) out += `${item.prelude}{${inner}}`;
    }
  }
  return out;
}

const CLASS_ATTRIBUTE = /\sclass="([^"]*)"/g;

/** The class names a document's elements carry. */
export function documentClasses(html: string): Set<string> {
  const names = new Set<string>();
  for (const [, value = ""] of html.matchAll(CLASS_ATTRIBUTE)) {
    for (const name of value.split(/\s+/)) if (name) names.add(name);
  }
  return names;
}

/** A stylesheet, parsed once, cut down to what each document uses. */
export function stylesheetSubsets(css: string): (classes: ReadonlySet<string>) => string {
  const items = parse(css);
  return (classes) => write(items, (name) => classes.has(name));
}
