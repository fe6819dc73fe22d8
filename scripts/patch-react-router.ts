/**
 * Gives React Router's route matcher a memory of the paths it matched (decision 081). Every document is matched four
 * times by the framework (the request handler, the static handler's query, and the route manifest for `/` and each
 * parent path), and each match tries every route branch in rank order, ~100 here with the optional `($lang)` segment:
 * 100-190 µs a match, 14 % of the server's main thread in the review loop. Remembered per matcher (the route tree of
 * one router or static handler), forgotten when its routes change, at most MAX_PATHS paths of up to MAX_PATH_LENGTH
 * characters; each caller gets its own copy of the matches, as before.
 *
 * Run by `npm install` / `npm ci` (postinstall) and by the image's build; changes nothing when already applied, and
 * fails when React Router's matcher no longer reads as expected, so an upgrade cannot drop it unnoticed.
 *
 *   node scripts/patch-react-router.ts [node_modules]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const MARKER = "/* matched paths remembered: scripts/patch-react-router.ts */";
const MAX_PATHS = 1000;
const MAX_PATH_LENGTH = 256;

export const ORIGINAL = `var V6RegExMatcher = class {
	#routes = [];
	#branches = [];
	#basename;
	constructor(basename) {
		this.#basename = basename;
	}
	update(routes) {
		this.#routes = routes;
		this.#branches = flattenAndRankRoutes(routes);
	}
	match(locationArg, allowPartial = false) {
		return matchRoutesImpl(this.#routes, locationArg, this.#basename, allowPartial, this.#branches);
	}
};`;

const PATCHED = `var V6RegExMatcher = class {
	${MARKER}
	#routes = [];
	#branches = [];
	#basename;
	#matched = new Map();
	constructor(basename) {
		this.#basename = basename;
	}
	update(routes) {
		this.#routes = routes;
		this.#branches = flattenAndRankRoutes(routes);
		this.#matched.clear();
	}
	match(locationArg, allowPartial = false) {
		let path = typeof locationArg === "string" ? locationArg : locationArg.pathname;
		if (typeof path !== "string" || path.length > ${MAX_PATH_LENGTH}) return matchRoutesImpl(this.#routes, locationArg, this.#basename, allowPartial, this.#branches);
		let key = (allowPartial ? "+" : "=") + path;
		let matches = this.#matched.get(key);
		if (matches === undefined) {
			matches = matchRoutesImpl(this.#routes, locationArg, this.#basename, allowPartial, this.#branches);
			if (this.#matched.size >= ${MAX_PATHS}) this.#matched.delete(this.#matched.keys().next().value);
			this.#matched.set(key, matches);
		}
		if (matches === null || matches.length === 0) return matches && [];
		let params = { ...matches[0].params };
		return matches.map((match) => ({ ...match, params }));
	}
};`;

/** The matcher modules of the installed React Router (both builds: Node and Vite pick one by condition). */
export const matcherFiles = (nodeModules: string) =>
  ["production", "development"].map((build) =>
    path.join(nodeModules, "react-router", "dist", build, "lib", "router", "matcher.js"),
  );

/** Applies the patch to one file; "patched" or "already" (throws when the file reads otherwise). */
export function patchFile(file: string): "patched" | "already" {
  const text = readFileSync(file, "utf8");
  if (text.includes(MARKER)) return "already";
  if (!text.includes(ORIGINAL))
    throw new Error(`${file}: React Router's matcher changed; review scripts/patch-react-router.ts (decision 081)`);
  writeFileSync(file, text.replace(ORIGINAL, PATCHED));
  return "patched";
}

if (import.meta.main) {
  const nodeModules = path.resolve(process.argv[2] ?? "node_modules");
  const files = matcherFiles(nodeModules).filter((file) => existsSync(file));
  if (files.length === 0) throw new Error(`no React Router matcher under ${nodeModules}`);
  for (const file of files) console.log(`${patchFile(file)}: ${path.relative(process.cwd(), file)}`);
}
