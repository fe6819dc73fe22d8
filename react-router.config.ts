import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // No build-time prerendering: public pages are rendered by the running server and kept in memory
  // (app/edge/page-cache.server.ts), so they carry the runtime configuration.
  // Cross-site actions are refused by the root middleware (app/http/origin-check.server.ts) with the translated
  // 403 page; React Router's own check would answer a plain-text 400 before any middleware runs.
  allowedActionOrigins: ["**"],
  // The development server scans the client entry and every route for dependencies before the first page, instead of
  // discovering them on it and answering its first scripts with 504 "Outdated Optimize Dep".
  future: { unstable_optimizeDeps: true },
} satisfies Config;
