import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // No build-time prerendering: public pages are rendered by the running server and kept in memory
  // (app/http/page-cache.server.ts), so they carry the runtime configuration.
} satisfies Config;
