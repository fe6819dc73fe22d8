/**
 * scripts/client-without-instrumentation.ts gives the client build a stand-in for React Router's instrumentation module:
 * the installed React Router must still have that module with the exports the stand-in replaces, and the stand-in must
 * give each of them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXPORTS, exportsOf, MODULE, STAND_IN } from "#scripts/client-without-instrumentation.ts";
import { PROJECT_ROOT as ROOT } from "#tests/support/paths.ts";

describe("the client build without React Router's instrumentations", () => {
  it("finds the installed module where the plugin looks, with the exports it replaces", () => {
    const file = path.join(ROOT, "node_modules/react-router/dist/production/lib/router/instrumentation.js");
    expect(MODULE.test(file)).toBe(true);
    expect(exportsOf(readFileSync(file, "utf8"))).toEqual([...EXPORTS].sort());
  });

  it("gives every one of those exports in the stand-in", () => {
    const named = [...STAND_IN.matchAll(/export (?:function|const) (\w+)|leftOut as (\w+)/g)].map((m) => m[1] ?? m[2]);
    expect(named.sort()).toEqual([...EXPORTS].sort());
  });
});
