import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { FIRST_LOAD_GROUPS } from "./scripts/client-chunks.ts";
import { withoutRouterInstrumentation } from "./scripts/client-without-instrumentation.ts";

/** `locales/de/common.json` becomes `assets/i18n-de-common-[hash].js`, so the server can preload a page's translations. */
const TRANSLATION_FILE = /\/locales\/([a-z]+)\/([a-z]+)\.json$/;
/** The list of those files becomes `assets/translation-loaders-[hash].js`, preloaded beside them. */
const TRANSLATION_LOADERS = /\/app\/i18n\/translation-loaders\.client\.ts$/;

export default defineConfig({
  // React Router's instrumentations, which the app does not use, stay out of the browser's build (see the plugin).
  plugins: [reactRouter(), withoutRouterInstrumentation()],
  // Where the development server keeps its optimised dependencies (Vite's node_modules/.vite unless set): a test gives
  // a fresh folder, as on a new clone.
  cacheDir: process.env.VITE_CACHE_DIR,
  resolve: {
    alias: [
      // react-i18next imports the backfill of `useSyncExternalStore` for React before 18, which under React 19 only
      // hands back React's own hook: the browser gets the hook directly (app/util/use-sync-external-store-shim.ts).
      {
        find: /^use-sync-external-store\/shim$/,
        replacement: fileURLToPath(new URL("./app/util/use-sync-external-store-shim.ts", import.meta.url)),
      },
    ],
  },
  ssr: { noExternal: ["drizzle-orm"] },
  build: {
    target: "es2022",
    // A lazily loaded file's imports are preloaded with it, except the file itself (the import fetches it anyway) and
    // what every page has loaded already (the first load's shared files): the first load carries no list of those.
    modulePreload: {
      resolveDependencies: (file, deps) =>
        deps.filter((dep) => dep !== file && !/^assets\/(vendor|app|rolldown-runtime)-[\w-]+\.js$/.test(dep)),
    },
    rollupOptions: {
      output: {
        chunkFileNames(chunk) {
          const translation = chunk.facadeModuleId?.match(TRANSLATION_FILE);
          if (translation) return `assets/i18n-${translation[1]}-${translation[2]}-[hash].js`;
          if (chunk.facadeModuleId && TRANSLATION_LOADERS.test(chunk.facadeModuleId))
            return "assets/translation-loaders-[hash].js";
          return "assets/[name]-[hash].js";
        },
      },
    },
  },
  environments: {
    client: {
      build: {
        rollupOptions: {
          // The first page's code in two files (libraries, app) instead of a score of small shared chunks.
          output: { codeSplitting: { groups: FIRST_LOAD_GROUPS } },
        },
      },
    },
  },
});
