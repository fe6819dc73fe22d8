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
  /** The dictionaries the reader's instant meanings come from, with their sources and licences. */
  dictionaries: "/dictionaries",
  /** Where Checkout returns after a subscription payment (`?session_id=`). */
  postPurchase: "/subscription/post-purchase",
  /** Where Checkout returns after a pledge (`?session_id=`). */
  pledgeThanks: "/crowdfunding-campaign/thank-you",
  /** Stripe's webhook deliveries (no locale prefix). */
  stripeWebhook: "/webhooks/stripe",
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
  /** The review from the cards stored on the device, where the service worker sends the review offline (ADR 065). */
  offlineReview: "/account/review/offline",
  /** What the service worker shows for any other page offline. */
  offline: "/offline",
  statistics: "/account/statistics",
  import: "/account/import",
  /** The data export (`?format=json` or `?format=csv`). */
  export: "/account/export",
  /** Daily limits, time zone and review modes. */
  settings: "/account/settings",
  /** The learner's plan, its status and the customer portal. */
  billing: "/account/billing",
  player: "/account/player",
  /** The player's next batch of cards, as JSON. */
  playerCards: "/account/player/cards",
  /** The learner's e-mail, sessions, data export and account deletion. */
  profile: "/account/profile",
  deleteAccount: "/account/profile/delete",
  playerSoon: "/account/player/player-soon",
} as const;

/** One of the learner's terms. */
export const termPath = (id: string): string => `/account/terms/${id}`;

/** One of the learner's texts in the reader. */
export const textPath = (id: string): string => `/account/texts/${id}`;

/** A shipped sample text in the demo reader. */
export const samplePath = (slug: string): string => `/texts/${slug}`;
