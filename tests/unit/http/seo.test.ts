import { describe, expect, it } from "vitest";
import { alternateLinks, canonicalUrl, pageTitle, titleFromPath, withoutTrackingParams } from "#app/http/seo.ts";

describe("page titles", () => {
  it("follow '{page title} - POLYGLOT'", () => expect(pageTitle("Explore")).toBe("Explore - POLYGLOT"));
  it("default to the bare product name", () => expect(pageTitle()).toBe("Polyglot"));
  it("fall back to the last path segment in title case", () => {
    expect(titleFromPath("/account/player/player-soon")).toBe("Player Soon");
    expect(titleFromPath("/")).toBeNull();
  });
});

describe("canonical and alternate links", () => {
  it("keep only whitelisted query parameters, sorted by name, on a lowercased path", () => {
    expect(canonicalUrl("https://app.example", "de", "/Explore", "?utm_source=x&stage=learned&q=haus&fbclid=1")).toBe(
      "https://app.example/de/explore?q=haus&stage=learned",
    );
  });
  it("drop the query when nothing is whitelisted", () => {
    expect(canonicalUrl("https://app.example", "en", "/", "?ref=abc")).toBe("https://app.example/");
  });
  it("name all seven locales plus x-default", () => {
    const links = alternateLinks("https://app.example", "/explore");
    expect(links.map((l) => l.hrefLang)).toEqual(["en", "de", "es", "fr", "tr", "uk", "zh", "x-default"]);
    expect(links.find((l) => l.hrefLang === "uk")?.href).toBe("https://app.example/uk/explore");
    expect(links.find((l) => l.hrefLang === "x-default")?.href).toBe("https://app.example/explore");
  });
});

describe("utm parameters", () => {
  it("are removed, other parameters kept", () => {
    expect(withoutTrackingParams("?utm_source=news&q=1&UTM_medium=mail")).toBe("?q=1");
    expect(withoutTrackingParams("?utm_source=news")).toBe("");
  });
  it("leave an address without them alone", () => expect(withoutTrackingParams("?q=1")).toBeNull());
});
