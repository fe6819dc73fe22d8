import type { Config } from "@react-router/dev/config";
import { prerenderedPaths } from "./app/http/prerender";

export default {
  ssr: true,
  // Legal and campaign pages change only with a release: they are rendered once per locale at build time.
  prerender: prerenderedPaths(),
  // Cross-site actions are refused by the root middleware (app/http/origin-check.server.ts) with the translated
  // 403 page; React Router's own check would answer a plain-text 400 before any middleware runs.
  allowedActionOrigins: ["**"],
} satisfies Config;
