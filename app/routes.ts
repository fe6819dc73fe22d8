import type { RouteConfig, RouteConfigEntry } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";

/**
 * Every route matches its path in one letter case only: `/ACCOUNT/PROFILE` is the 404 page, not the profile. The
 * sign-in guard, the private-response rule and the caches compare paths as written, so they see exactly the paths the
 * router matches. React Router ignores `caseSensitive` on index routes, so an index route that carries a path of its
 * own (`account.profile._index` is `profile`) becomes the plain leaf route it is equivalent to.
 */
const caseSensitive = (routes: RouteConfigEntry[]): RouteConfigEntry[] =>
  routes.map(({ index, ...route }) => ({
    ...route,
    ...(index && !route.path ? { index } : {}),
    caseSensitive: true,
    ...(route.children ? { children: caseSensitive(route.children) } : {}),
  }));

export default flatRoutes().then(caseSensitive) satisfies RouteConfig;
