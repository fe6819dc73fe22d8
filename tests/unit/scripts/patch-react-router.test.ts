/**
 * React Router's matcher remembers the paths it matched (scripts/patch-react-router.ts, run by npm's postinstall;
 * decision 081): a router's or static handler's match gives what matching every branch gives, from memory the second
 * time, a fresh copy to each caller, and the same for paths it does not keep.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createStaticHandler, matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it, onTestFinished } from "vitest";
import { MARKER, matcherFiles, ORIGINAL, patchFile } from "#scripts/patch-react-router.ts";
import { PROJECT_ROOT } from "#tests/support/paths.ts";
import { tempDir } from "#tests/support/temp.ts";

/** The app's shape: an optional language segment, pathless layouts, index routes, parameters, a catch-all. */
const routes: RouteObject[] = [
  {
    id: "root",
    path: "",
    children: [
      {
        id: "lang",
        path: ":lang?",
        caseSensitive: true,
        children: [
          {
            id: "default",
            caseSensitive: true,
            children: [
              { id: "home", index: true },
              { id: "explore", path: "explore", caseSensitive: true },
              { id: "text", path: "texts/:slug", caseSensitive: true },
              { id: "missing", path: "*", caseSensitive: true },
            ],
          },
          {
            id: "account",
            path: "account",
            caseSensitive: true,
            children: [
              { id: "account-home", path: "home", caseSensitive: true },
              { id: "review", path: "review", caseSensitive: true },
              { id: "term", path: "terms/:id", caseSensitive: true },
              { id: "new-term", path: "terms/new", caseSensitive: true },
            ],
          },
        ],
      },
    ],
  },
];

const PATHS = [
  "/",
  "/de",
  "/explore",
  "/de/explore",
  "/account/review",
  "/de/account/review",
  "/account/terms/new",
  "/account/terms/4f1c",
  "/uk/account/terms/4f1c",
  "/texts/der-hase",
  "/ACCOUNT/review",
  "/account/review/",
  "/nowhere/at/all",
  "/%E2%9C%93/account/home",
];

/** The matches without the route objects' other fields, which are the same objects either way. */
const shape = (matches: ReturnType<typeof matchRoutes>) =>
  matches?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, base: m.pathnameBase })) ?? null;

describe("route matching from memory", () => {
  it("is installed in both of React Router's builds", () => {
    for (const file of matcherFiles(path.join(PROJECT_ROOT, "node_modules")))
      expect(readFileSync(file, "utf8"), file).toContain(MARKER);
  });

  it("gives what matching every branch gives, the first time and from memory", () => {
    const handler = createStaticHandler(routes);
    for (let round = 0; round < 2; round++)
      for (const pathname of PATHS)
        expect(shape(handler.match(pathname)), pathname).toEqual(shape(matchRoutes(routes, pathname)));
  });

  it("gives each caller its own copy", () => {
    const handler = createStaticHandler(routes);
    const first = handler.match("/de/account/terms/4f1c")!;
    (first[0]!.params as Record<string, string>).id = "changed";
    first.pop();
    (first[0] as { pathname: string }).pathname = "/elsewhere";
    const second = handler.match("/de/account/terms/4f1c")!;
    expect(shape(second)).toEqual(shape(matchRoutes(routes, "/de/account/terms/4f1c")));
    expect(second.every((m) => m.params === second[0]!.params)).toBe(true);
  });

  it("matches paths it does not keep, and still matches after forgetting the oldest", () => {
    const handler = createStaticHandler(routes);
    const long = `/texts/${"x".repeat(300)}`;
    expect(shape(handler.match(long))).toEqual(shape(matchRoutes(routes, long)));
    for (let i = 0; i < 2500; i++) handler.match(`/account/terms/${i}`);
    for (const pathname of ["/account/terms/0", "/account/terms/2499", ...PATHS])
      expect(shape(handler.match(pathname)), pathname).toEqual(shape(matchRoutes(routes, pathname)));
  });

  it("is applied once, and refuses a matcher that reads otherwise", () => {
    const dir = tempDir("patch-react-router");
    const file = path.join(dir, "matcher.js");
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(file, `import { flattenAndRankRoutes, matchRoutesImpl } from "./utils.js";\n${ORIGINAL}\n`);
    expect(patchFile(file)).toBe("patched");
    expect(readFileSync(file, "utf8")).toContain(MARKER);
    expect(patchFile(file)).toBe("already");
    writeFileSync(file, "var V6RegExMatcher = class { match() {} };\n");
    expect(() => patchFile(file)).toThrow(/matcher changed/);
  });
});
