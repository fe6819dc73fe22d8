/**
 * scripts/trim-package-exports.ts (run on the image's node_modules) keeps of a package's `exports` what `import`
 * resolves to in Node: the first matching condition in the map's own order, arrays' first match, null kept, and an
 * entry that `import` cannot use left out.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "#tests/support/temp.ts";
import { PROJECT_ROOT } from "#tests/support/paths.ts";

const SCRIPT = path.resolve(PROJECT_ROOT, "scripts/trim-package-exports.ts");
const root = tempDir("trim-exports");
afterAll(() => rmSync(root, { recursive: true, force: true }));

function trim(name: string, pkg: object): Record<string, unknown> {
  const dir = path.join(root, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg));
  execFileSync(process.execPath, [SCRIPT, dir], { stdio: "pipe" });
  return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Record<string, unknown>;
}

describe("trim-package-exports", () => {
  it("keeps the ES module target of each subpath and drops require, types and typesVersions", () => {
    const trimmed = trim("subpaths", {
      name: "dual",
      type: "module",
      typesVersions: { "*": { "*": ["./types/*"] } },
      exports: {
        ".": {
          import: { types: "./index.d.ts", default: "./index.js" },
          require: { types: "./index.d.cts", default: "./index.cjs" },
        },
        "./server": { types: "./server.d.ts", node: "./server.node.js", default: "./server.js" },
        "./list": [{ require: "./list.cjs" }, "./list.js"],
        "./cjs-only": { require: "./cjs-only.cjs" },
        "./hidden": null,
        "./utils/*": { import: "./utils/*.js", require: "./utils/*.cjs" },
        "./package.json": "./package.json",
      },
    });
    expect(trimmed).toEqual({
      name: "dual",
      type: "module",
      exports: {
        ".": "./index.js",
        "./server": "./server.node.js",
        "./list": "./list.js",
        "./hidden": null,
        "./utils/*": "./utils/*.js",
        "./package.json": "./package.json",
      },
    });
  });

  it("reduces a conditions-only map to its import target", () => {
    const trimmed = trim("conditions", { name: "single", exports: { require: "./a.cjs", import: "./a.mjs" } });
    expect(trimmed.exports).toBe("./a.mjs");
  });
});
