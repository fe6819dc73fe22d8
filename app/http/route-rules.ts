import { PATHS } from "./paths";

/**
 * Server route rules: paths that permanently move elsewhere. Keys and internal targets are unprefixed paths; the
 * visitor's locale prefix is kept. An external target must be flagged and leads to a full page load.
 */
export type RouteRule = { to: string; external?: boolean; status?: 301 | 302 | 307 | 308 };

export const ROUTE_RULES: Record<string, RouteRule> = {
  "/login": { to: PATHS.signIn },
  "/signin": { to: PATHS.signIn },
  "/privacy": { to: PATHS.privacy },
  "/terms": { to: PATHS.termsOfUse },
  "/pricing": { to: PATHS.subscription },
  "/crowdfunding": { to: PATHS.crowdfunding },
  // How the review scheduler decides when a term is due, explained by the FSRS authors.
  "/about/fsrs": {
    to: "https://github.com/open-spaced-repetition/fsrs4anki/wiki/ABC-of-FSRS",
    external: true,
    status: 302,
  },
};
