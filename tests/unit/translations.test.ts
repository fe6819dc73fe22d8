import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOCALES, NAMESPACES } from "../../app/i18n/locales";

const root = path.resolve(import.meta.dirname, "../../locales");
type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(name, value);
    else for (const [k, v] of flatten(value, name)) out.set(k, v);
  }
  return out;
}
const read = (lng: string, ns: string) =>
  flatten(JSON.parse(readFileSync(path.join(root, lng, `${ns}.json`), "utf8")) as Tree);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)[^}]*\}\}/g)].map((m) => m[1]).sort();
/** English has only _one/_other; other languages need their own plural categories instead. */
const pluralBase = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, "");

describe("translations", () => {
  it("exist for exactly the seven interface locales and the known namespaces", () => {
    // Beside the locale folders lives only the glossary (GLOSSARY.md).
    const entries = readdirSync(root, { withFileTypes: true });
    expect(entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual(["GLOSSARY.md"]);
    expect(
      entries
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
    ).toEqual([...LOCALES].sort());
    for (const lng of LOCALES)
      expect(readdirSync(path.join(root, lng)).sort()).toEqual(NAMESPACES.map((ns) => `${ns}.json`).sort());
  });

  for (const lng of LOCALES.filter((l) => l !== "en")) {
    for (const ns of NAMESPACES) {
      it(`${lng}/${ns} has every English key, no extra key, and the same placeholders`, () => {
        const en = read("en", ns);
        const other = read(lng, ns);
        const enKeys = new Set([...en.keys()].map(pluralBase));
        const otherKeys = new Set([...other.keys()].map(pluralBase));
        expect(
          [...enKeys].filter((k) => !otherKeys.has(k)),
          "missing keys",
        ).toEqual([]);
        expect(
          [...otherKeys].filter((k) => !enKeys.has(k)),
          "extra keys",
        ).toEqual([]);
        for (const [key, text] of other) {
          const reference = en.get(key) ?? en.get(`${pluralBase(key)}_other`) ?? "";
          expect(placeholders(text), `placeholders of ${key}`).toEqual(placeholders(reference));
          expect(text.trim(), `empty ${key}`).not.toBe("");
        }
        // Plural keys carry every category the language's plural rules use.
        const categories = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
        for (const base of new Set([...en.keys()].filter((k) => /_(one|other)$/.test(k)).map(pluralBase))) {
          for (const category of categories) expect(other.has(`${base}_${category}`), `${base}_${category}`).toBe(true);
        }
      });
    }
  }
});
