/**
 * Unprefixed paths of pages the code links or redirects to (route files decide them; this table names them once).
 * A locale's URL is `localePath(locale, PATHS.signIn)`.
 */
export const PATHS = {
  /** The sign-in form (the guard's login page). */
  signIn: "/form",
  /** Where a sign-in link lands. */
  confirm: "/confirm",
  /** The signed-in learner's home. */
  learnerHome: "/account/home",
} as const;
