/**
 * React Router's browser router carries the code of its `instrumentations` option (lib/router/instrumentation.js, about
 * 1 KB of brotli on every page's first load): the router wraps its handlers with it only when that option is given,
 * and the client entry never gives it (app/entry.client.tsx renders `<HydratedRouter />` without it). The client build
 * takes, in place of that module, one with the same exports that does nothing where the router calls it anyway and
 * throws where only an instrumented router would.
 *
 * The build fails when the module no longer reads as expected (another path, other exports), so a React Router upgrade
 * cannot change what is left out unnoticed. The development server and the server build keep the original.
 */
import { readFileSync } from "node:fs";
import type { Plugin } from "vite";

export const MODULE = /\/node_modules\/react-router\/dist\/(production|development)\/lib\/router\/instrumentation\.js$/;
const HERE = "scripts/client-without-instrumentation.ts";
/** The module's exports as React Router 8.4 has them; the stand-in gives the same. */
export const EXPORTS = [
  "consumeInstrumentationClientResultMetaReceiver",
  "getRouteInstrumentationUpdates",
  "instrumentClientSideRouter",
  "instrumentHandler",
  "instrumentationResultMetaContext",
];

export const STAND_IN = `import { createContext } from "./utils.js";
// Without instrumentations no receiver is ever set: the router finds none, as with the original.
export function consumeInstrumentationClientResultMetaReceiver() {}
function leftOut() {
  throw new Error("React Router's instrumentations are left out of the client build (${HERE})");
}
export { leftOut as getRouteInstrumentationUpdates, leftOut as instrumentClientSideRouter, leftOut as instrumentHandler };
export const instrumentationResultMetaContext = createContext();
`;

/** The exports the original module names in its closing `export { … }`. */
export function exportsOf(source: string): string[] {
  const list = /export \{([^}]*)\};\s*$/.exec(source.replace(/\/\/# sourceMappingURL=.*\s*$/, ""))?.[1] ?? "";
  return list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean)
    .sort();
}

export function withoutRouterInstrumentation(): Plugin {
  let replaced = false;
  return {
    name: "polyglot:without-router-instrumentation",
    apply: "build",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    buildStart() {
      replaced = false;
    },
    load(id) {
      if (!MODULE.test(id)) return null;
      const found = exportsOf(readFileSync(id, "utf8"));
      if (found.join() !== [...EXPORTS].sort().join())
        this.error(`React Router's instrumentation module changed (exports ${found.join(", ")}): review ${HERE}`);
      replaced = true;
      return STAND_IN;
    },
    buildEnd(error) {
      if (!error && !replaced)
        this.error(`React Router's instrumentation module was not found in the client build: review ${HERE}`);
    },
  };
}
