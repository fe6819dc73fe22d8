import { describe, expect, it } from "vitest";
import { documentClasses, stylesheetSubsets } from "#app/ui/stylesheet-subset.server.ts";

const CSS = [
  ":root,.sg-theme{--ink:#111}",
  "body{margin:0}",
  ".card{padding:1rem}",
  ".card .title,.panel h2{font-weight:600}",
  ".toast.toast-error{color:red}",
  'a[href$=".pdf"]::after{content:" (PDF)"}',
  "button:not(.link-button){border:1px solid}",
  ".menu:is(.open,.pinned) .item{display:block}",
  "@media (prefers-color-scheme:dark){:root{--ink:#eee}.card{background:#000}.reader{color:#fff}}",
  "@media print{.reader{color:#000}}",
  "@keyframes spin{from{rotate:0deg}to{rotate:360deg}}",
  "@supports (display:grid){.grid{display:grid}}",
  '.quote::before{content:"{.not-a-class}"}',
].join("");

const subset = stylesheetSubsets(CSS);
const rulesOf = (...classes: string[]) => subset(new Set(classes));

describe("the stylesheet held by a document", () => {
  it("is the whole stylesheet when every class is there", () => {
    const every = { has: () => true } as unknown as ReadonlySet<string>;
    expect(subset(every)).toBe(CSS);
  });

  it("keeps the rules of elements, attributes, states and :root, whatever the classes", () => {
    const none = rulesOf();
    expect(none).toContain(":root,.sg-theme{--ink:#111}");
    expect(none).toContain("body{margin:0}");
    expect(none).toContain('a[href$=".pdf"]::after');
    // A class inside :not() or :is() is not needed for the rule to apply.
    expect(none).toContain("button:not(.link-button){border:1px solid}");
    expect(none).toContain("@keyframes spin{from{rotate:0deg}to{rotate:360deg}}");
    expect(none).toContain("@media (prefers-color-scheme:dark){:root{--ink:#eee}}");
    expect(none).not.toContain(".card");
    expect(none).not.toContain("@media print");
    expect(none).not.toContain("@supports");
  });

  it("keeps a rule when one of its selectors names only classes the document has", () => {
    expect(rulesOf("panel")).toContain(".card .title,.panel h2{font-weight:600}");
    expect(rulesOf("card", "title")).toContain(".card .title,.panel h2{font-weight:600}");
    expect(rulesOf("card")).not.toContain("font-weight");
    expect(rulesOf("title")).not.toContain("font-weight");
    expect(rulesOf("toast")).not.toContain("color:red");
    expect(rulesOf("toast", "toast-error")).toContain(".toast.toast-error{color:red}");
    expect(rulesOf("menu")).not.toContain(".item{");
    expect(rulesOf("menu", "item")).toContain(".menu:is(.open,.pinned) .item{display:block}");
    // A string that looks like a class is not one.
    expect(rulesOf("quote")).toContain('.quote::before{content:"{.not-a-class}"}');
  });

  it("keeps an at-rule's own rules that apply, and drops the at-rule when none does", () => {
    expect(rulesOf("card")).toContain("@media (prefers-color-scheme:dark){:root{--ink:#eee}.card{background:#000}}");
    expect(rulesOf("reader")).toContain("@media print{.reader{color:#000}}");
    expect(rulesOf("grid")).toContain("@supports (display:grid){.grid{display:grid}}");
  });

  it("reads the classes of a document's elements, and nothing else", () => {
    const html =
      '<html class="no-js"><body><main class="card  wide\n tall"><p>class="fake"</p><svg class="logo"></svg>' +
      '<div data-class="other"></div></main></body></html>';
    expect([...documentClasses(html)].sort()).toEqual(["card", "logo", "no-js", "tall", "wide"]);
  });
});
