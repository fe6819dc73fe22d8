import { describe, expect, it } from "vitest";
import { safeTarget } from "#app/http/navigation.ts";

describe("safeTarget: the one gate every redirect goes through", () => {
  it.each(["/", "/account/home", "/de/explore?q=haus#top", "/company/privacy"])(
    "keeps the internal path %s",
    (path) => {
      expect(safeTarget(path)).toBe(path);
    },
  );

  const refused = [
    "//evil.example",
    "//evil.example/path",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/%2Fevil.example",
    "/%2f%2fevil.example",
    "%2F%2Fevil.example",
    "/%5Cevil.example",
    "/%5cevil.example",
    "https://evil.example",
    "http://evil.example/account",
    "HTTPS://EVIL.EXAMPLE",
    "https:evil.example",
    "http:/evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "javascript%3Aalert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "ftp://evil.example",
    "/\tevil",
    "/\n/evil.example",
    "\u0000/evil",
    "evil.example",
    "",
    "   ",
    "%",
    "//%65vil.example",
    "/.//evil.example",
    "/a/..//evil.example",
  ];
  it.each(refused)("refuses %j", (target) => {
    expect(safeTarget(target)).toBeNull();
  });

  it("refuses a non-string", () => {
    expect(safeTarget(null)).toBeNull();
    expect(safeTarget(42)).toBeNull();
  });

  it("lets an external http(s) or mailto target through only when flagged", () => {
    expect(safeTarget("https://example.org/wiki", { external: true })).toBe("https://example.org/wiki");
    expect(safeTarget("mailto:hello@example.org", { external: true })).toBe("mailto:hello@example.org");
    expect(safeTarget("https://example.org/wiki")).toBeNull();
  });

  it("never lets a disallowed protocol through, even when flagged", () => {
    expect(safeTarget("javascript:alert(1)", { external: true })).toBeNull();
    expect(safeTarget("data:text/html,x", { external: true })).toBeNull();
    expect(safeTarget("vbscript:x", { external: true })).toBeNull();
  });

  it("treats an absolute URL on the site's own origin as internal", () => {
    expect(safeTarget("https://app.example/account/home?x=1", { origin: "https://app.example" })).toBe(
      "/account/home?x=1",
    );
  });
});
