import { PATHS } from "./paths";

/** Pages anyone can see, listed in the sitemap (unprefixed; every locale has each of them). */
export const PUBLIC_PAGES = [
  PATHS.home,
  PATHS.signIn,
  PATHS.explore,
  PATHS.sampleTexts,
  PATHS.subscription,
  PATHS.privacy,
  PATHS.termsOfUse,
  PATHS.crowdfunding,
];
