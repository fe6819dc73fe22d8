import { PATHS } from "../http/paths";

/** Which routes need a signed-in learner. Patterns match the path without its locale prefix; `*` is a wildcard. */
export type GuardConfig = { include: string[]; exclude: string[]; loginPath: string; callbackPath: string };

export const GUARD: GuardConfig = {
  include: ["/account", "/account/*"],
  exclude: [],
  loginPath: PATHS.signIn,
  callbackPath: PATHS.confirm,
};

function patternToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`);
}

/** True when a path needs a signed-in learner under this configuration. */
export function isGuarded(path: string, config: GuardConfig = GUARD): boolean {
  const clean = path.replace(/\/+$/, "") || "/";
  if (clean === config.loginPath || clean === config.callbackPath) return false;
  if (config.exclude.some((pattern) => patternToRegExp(pattern).test(clean))) return false;
  return config.include.some((pattern) => patternToRegExp(pattern).test(clean));
}
