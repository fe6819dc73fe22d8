/**
 * Rewrites the `exports` map of installed packages to what `import` in Node resolves to, dropping the `require` and
 * `types` branches and `typesVersions`. Node parses a package's package.json again for many of the modules it loads
 * from that package: drizzle-orm's is 179 KB (about 450 subpaths, each with four targets) and importing its ~100 modules
 * took ~0.55 s of CPU, ~0.19 s with the trimmed 29 KB file. The image runs it on its production node_modules, whose
 * CommonJS copies of these packages are removed anyway (see Dockerfile). The app only imports them.
 *
 *   node scripts/trim-package-exports.ts node_modules/drizzle-orm [...]
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The conditions Node 24 matches for `import`, in any order (the map's own key order decides). */
const IMPORT_CONDITIONS = new Set(["node", "import", "module-sync", "default"]);

type Target = string | null | Target[] | { [condition: string]: Target };

/** What Node would pick for `import` (undefined: nothing matches, so the entry is left out). */
function importTarget(target: Target): string | null | undefined {
  if (target === null || typeof target === "string") return target;
  if (Array.isArray(target)) {
    for (const item of target) {
      const picked = importTarget(item);
      if (picked !== undefined) return picked;
    }
    return undefined;
  }
  for (const [condition, value] of Object.entries(target)) {
    if (!IMPORT_CONDITIONS.has(condition)) continue;
    const picked = importTarget(value);
    if (picked !== undefined) return picked;
  }
  return undefined;
}

function trimmed(exports: Target | Record<string, Target>): Target {
  const isSubpathMap =
    typeof exports === "object" &&
    exports !== null &&
    !Array.isArray(exports) &&
    Object.keys(exports)[0]?.startsWith(".");
  if (!isSubpathMap) return importTarget(exports as Target) ?? null;
  const entries = Object.entries(exports as Record<string, Target>).map(([subpath, target]) => [
    subpath,
    importTarget(target),
  ]);
  return Object.fromEntries(entries.filter(([, target]) => target !== undefined));
}

for (const dir of process.argv.slice(2)) {
  const file = path.join(dir, "package.json");
  const pkg = JSON.parse(readFileSync(file, "utf8")) as { exports?: Target; typesVersions?: unknown };
  const before = readFileSync(file).length;
  if (pkg.exports !== undefined) pkg.exports = trimmed(pkg.exports);
  delete pkg.typesVersions;
  writeFileSync(file, JSON.stringify(pkg));
  console.log(`${file}: ${before} -> ${readFileSync(file).length} bytes`);
}
