import { redirect } from "react-router";
import type { Route } from "./+types/($lang).account._index";
import { requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { PATHS } from "../http/paths";

/** The account area opens on the learner's home. */
export function loader({ context }: Route.LoaderArgs) {
  throw redirect(localePath(requestLocale(context), PATHS.learnerHome));
}
