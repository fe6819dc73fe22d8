/**
 * Unprefixed paths of pages the code links or redirects to (route files decide them; this table names them once).
 * A locale's URL is `localePath(locale, PATHS.signIn)`.
 */
export const PATHS = {
  home: "/",
  explore: "/explore",
  subscription: "/subscription",
  privacy: "/company/privacy",
  termsOfUse: "/company/terms-of-use",
  crowdfunding: "/crowdfunding-campaign",
  /** The sign-in form (the guard's login page). */
  signIn: "/form",
  /** Where a sign-in link lands. */
  confirm: "/confirm",
  logout: "/logout",
  /** The error page; `?reason=` names a failed sign-in. */
  error: "/error",
  /** The signed-in learner's home. */
  learnerHome: "/account/home",
  accountExplore: "/account/explore",
  memberTerms: "/account/explore/member",
  publicLists: "/account/explore/public",
  newTerm: "/account/terms/new",
  texts: "/account/texts",
  newText: "/account/texts/new",
  /** The shipped sample texts, a demo of the reader for everyone. */
  sampleTexts: "/texts",
  review: "/account/review",
  player: "/account/player",
  playerSoon: "/account/player/player-soon",
} as const;

/** One of the learner's terms. */
export const termPath = (id: string): string => `/account/terms/${id}`;

/** One of the learner's texts in the reader. */
export const textPath = (id: string): string => `/account/texts/${id}`;

/** A shipped sample text in the demo reader. */
export const samplePath = (slug: string): string => `/texts/${slug}`;
