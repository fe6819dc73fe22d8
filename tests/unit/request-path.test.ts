import { describe, expect, it } from "vitest";
import { isDataRequest, pagePath, requestPath } from "../../app/http/request-path";

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
