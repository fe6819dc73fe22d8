import { describe, expect, it } from "vitest";
import { matchAcceptLanguage } from "#app/i18n/accept-language.ts";
import { LOCALES, localeAutonym, localeDirection, localePath, splitLocale } from "#app/i18n/locales.ts";

describe("locale prefixes", () => {
  it("leave English unprefixed and prefix the others", () => {
    expect(localePath("en", "/explore")).toBe("/explore");
    expect(localePath("de", "/explore")).toBe("/de/explore");
    expect(localePath("uk", "/")).toBe("/uk");
  });
  it("split a URL into locale and path", () => {
    expect(splitLocale("/de/explore")).toEqual({ locale: "de", path: "/explore" });
    expect(splitLocale("/zh")).toEqual({ locale: "zh", path: "/" });
    expect(splitLocale("/explore")).toEqual({ locale: "en", path: "/explore" });
    expect(splitLocale("/xx/explore")).toEqual({ locale: "en", path: "/xx/explore" });
  });
  it("are all left to right", () => {
    for (const locale of LOCALES) expect(localeDirection(locale)).toBe("ltr");
    expect(localeDirection("ar")).toBe("rtl");
  });
});

describe("locale names", () => {
  it("are each locale's own name from Intl.DisplayNames, capitalised", () => {
    for (const locale of LOCALES) {
      const name = new Intl.DisplayNames([locale], { type: "language" }).of(locale)!;
      expect(localeAutonym(locale)).toBe(name.charAt(0).toLocaleUpperCase(locale) + name.slice(1));
    }
  });
});

describe("Accept-Language", () => {
  it("picks the best supported match by quality", () => {
    expect(matchAcceptLanguage("fr-CH, fr;q=0.9, en;q=0.8", LOCALES)).toBe("fr");
    expect(matchAcceptLanguage("ja, uk;q=0.5, de;q=0.7", LOCALES)).toBe("de");
    expect(matchAcceptLanguage("zh-CN,zh;q=0.9", LOCALES)).toBe("zh");
  });
  it("gives null when nothing matches", () => {
    expect(matchAcceptLanguage("ja, ko;q=0.5", LOCALES)).toBeNull();
    expect(matchAcceptLanguage(null, LOCALES)).toBeNull();
    expect(matchAcceptLanguage("de;q=0", LOCALES)).toBeNull();
  });
});
