import { PATHS } from "./paths";

/** Pages anyone can see, listed in the sitemap (unprefixed; every locale has each of them). */
export const PUBLIC_PAGES = [
  "/",
  PATHS.signIn,
  "/explore",
  "/subscription",
  "/company/privacy",
  "/company/terms-of-use",
  "/crowdfunding-campaign",
];
