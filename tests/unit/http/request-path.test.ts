import { holdsSignInToken } from "#app/analytics/token-pages.ts";
import { describe, expect, it } from "vitest";
import { isDataRequest, pagePath, requestPath } from "#app/http/request-path.ts";

describe("pagePath", () => {
  it.each([
    ["/", "/"],
    ["/_.data", "/"],
    ["/de", "/de"],
    ["/de.data", "/de"],
    ["/de/", "/de"],
    ["/de/_.data", "/de"],
    ["/de/explore.data", "/de/explore"],
    ["/company/privacy/", "/company/privacy"],
    ["/account/terms/x.data", "/account/terms/x"],
  ])("names %s as the page %s", (path, page) => {
    expect(pagePath(path)).toBe(page);
  });

  it("reads a request's page and tells data requests apart", () => {
    const data = new Request("http://localhost/fr.data?_routes=root");
    expect(requestPath(data)).toBe("/fr");
    expect(isDataRequest(data)).toBe(true);
    expect(isDataRequest(new Request("http://localhost/fr"))).toBe(false);
  });
});

describe("pages holding a sign-in token", () => {
  it("are the confirm page in every locale, however its path is written, and no other", () => {
    for (const path of ["/confirm", "/de/confirm", "/CONFIRM", "/zh/Confirm/", "/%63onfirm", "/de/%43ONFIRM"])
      expect(holdsSignInToken(path), path).toBe(true);
    for (const path of [
      "/",
      "/form",
      "/explore",
      "/de/explore",
      "/confirmed",
      "/account/confirm",
      "/%zz",
      "/x%2Fconfirm",
    ])
      expect(holdsSignInToken(path), path).toBe(false);
  });
});
