import type { Config } from "@react-router/dev/config";
import { prerenderedPaths } from "./app/http/prerender";

export default {
  ssr: true,
  // Legal and campaign pages change only with a release: they are rendered once per locale at build time.
  prerender: prerenderedPaths(),
} satisfies Config;
