import { createInstance, type i18n } from "i18next";
import { beforeEach, describe, expect, it } from "vitest";
import { LOCALES, NAMESPACES } from "#app/i18n/locales.ts";
import { resources } from "#app/i18n/resources.server.ts";
import { forgetTranslations, translationMemo } from "#app/i18n/translation-memo.server.ts";
import { SERVER_I18NEXT_MODULES, SERVER_I18NEXT_OPTIONS } from "#app/i18n/server-options.server.ts";
import { startRecordingNamespaces, usedTranslations } from "#app/i18n/used-namespaces.server.ts";

/** An instance as the server's i18n middleware makes one per request (app/i18n/i18n.server.ts), with or without the
 * memo. */
async function instance(lng: string, memo: boolean): Promise<i18n> {
  const made = createInstance(SERVER_I18NEXT_OPTIONS);
  for (const module of SERVER_I18NEXT_MODULES) if (memo || module !== translationMemo) made.use(module);
  await made.init({ lng });
  return made;
}

/** Every key of a namespace as a page names it: nested keys dotted, plural forms by their base key. */
function keysOf(tree: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value !== "string") return keysOf(value as Record<string, unknown>, name);
    return [name, name.replace(/_(zero|one|two|few|many|other)$/, "")];
  });
}

describe("translations kept in memory", () => {
  beforeEach(() => forgetTranslations());

  // Every key of every locale and namespace, 21 lookups each: longer than the default timeout on a busy machine.
  it("answer every key of every locale and namespace as i18next does, the first time and from memory", async () => {
    for (const lng of LOCALES) {
      const plain = await instance(lng, false);
      const first = await instance(lng, true);
      const second = await instance(lng, true);
      for (const ns of NAMESPACES) {
        const keys = [...new Set(keysOf(resources[lng]![ns] as Record<string, unknown>)), "no.such.key"];
        const expected = plain.getFixedT(null, ns);
        for (const t of [first.getFixedT(null, ns), second.getFixedT(null, ns), second.getFixedT(lng, ns)])
          for (const key of keys) {
            expect(t(key), `${lng}/${ns}:${key}`).toBe(expected(key));
            // Counts (plural forms, numbers in the locale's format) are kept apart by their values.
            for (const count of [0, 1, 2, 5, 21, 1234.5])
              expect(t(key, { count }), `${lng}/${ns}:${key} (${count})`).toBe(expected(key, { count }));
          }
      }
    }
  }, 60_000);

  it("keep apart what differs: language, namespace, key prefix, counts; a string to interpolate is never kept", async () => {
    const en = await instance("en", true);
    const de = await instance("de", true);
    const key = keysOf(resources.en!.common as Record<string, unknown>).find(
      (k) => typeof (resources.en!.common as Record<string, unknown>)[k] === "string",
    )!;
    expect(en.getFixedT(null, "common")(key)).toBe((resources.en!.common as Record<string, string>)[key]);
    expect(de.getFixedT(null, "common")(key)).toBe((resources.de!.common as Record<string, string>)[key]);
    expect(en.getFixedT("de", "common")(key)).toBe((resources.de!.common as Record<string, string>)[key]);
    // A key prefix changes what a key means.
    const nested = keysOf(resources.en!.pages as Record<string, unknown>).find((k) => k.split(".").length === 2)!;
    const [prefix, rest] = nested.split(".") as [string, string];
    expect(en.getFixedT(null, "pages", prefix)(rest)).toBe(en.getFixedT(null, "pages")(nested));
    expect(en.getFixedT(null, "pages")(rest)).not.toBe(en.getFixedT(null, "pages", prefix)(rest));
    // Counts are kept apart by their values.
    const plural = keysOf(resources.en!.learning as Record<string, unknown>).find((k) => k.endsWith("_one"))!;
    const base = plural.replace(/_one$/, "");
    const t = en.getFixedT(null, "learning");
    expect(t(base, { count: 1 })).not.toBe(t(base, { count: 2 }));
    // A string to interpolate is never kept: each call gets its own value.
    const texts = (tree: Record<string, unknown>, path = ""): [string, string][] =>
      Object.entries(tree).flatMap(([k, v]): [string, string][] =>
        typeof v === "string" ? [[path + k, v]] : texts(v as Record<string, unknown>, `${path}${k}.`),
      );
    const withValue = texts(resources.en!.common as Record<string, unknown>).find(([, text]) =>
      /\{\{(\w+)\}\}/.test(text),
    )!;
    const variable = /\{\{(\w+)\}\}/.exec(withValue[1])![1]!;
    const c = en.getFixedT(null, "common");
    expect(c(withValue[0], { [variable]: "Ada" })).toContain("Ada");
    expect(c(withValue[0], { [variable]: "Grace" })).toContain("Grace");
  });

  it("still note the namespaces a page used when a key is answered from memory", async () => {
    const first = await instance("fr", true);
    const readingKey = keysOf(resources.fr!.reading as Record<string, unknown>)[0]!;
    first.getFixedT(null, "reading")(readingKey);
    // The next request's render translates the same key from memory: its document must still carry `reading`.
    const second = await instance("fr", true);
    startRecordingNamespaces(second);
    expect(Object.keys(usedTranslations(second))).toEqual(["common"]);
    second.getFixedT(null, "reading")(readingKey);
    expect(Object.keys(usedTranslations(second)).sort()).toEqual(["common", "reading"]);
  });
});
