import { redirect } from "react-router";
import type { Route } from "./+types/($lang).account._index";
import { localePath, splitLocale } from "../i18n/locales";

/** The account area opens on the learner's home. */
export function loader({ request }: Route.LoaderArgs) {
  const { locale } = splitLocale(new URL(request.url).pathname);
  throw redirect(localePath(locale, "/account/home"));
}
