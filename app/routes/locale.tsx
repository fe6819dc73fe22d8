import { data } from "react-router";
import type { Route } from "./+types/locale";
import { localeCookie } from "../i18n/i18n.server";
import { isLocale, localePath, splitLocale } from "../i18n/locales";
import { safeRedirect } from "../http/redirect.server";
import { safeTarget } from "../http/navigation";
import { pageNotFound } from "../http/errors";
import { readForm } from "../http/request-body.server";

/** The language switch: remembers the choice for a year and returns to the same page in the new language. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const lng = form.get("lng");
  if (!isLocale(lng)) throw data(null, { status: 400 });
  const current = safeTarget(form.get("redirectTo")) ?? "/";
  const url = new URL(current, "http://internal.invalid");
  const { path } = splitLocale(url.pathname);
  return safeRedirect(localePath(lng, path) + url.search, "/", {
    headers: { "Set-Cookie": await localeCookie.serialize(lng) },
  });
}

/** Only the form POST lives here: a visit is the 404 page, and a refused POST gets the translated error page. */
export function loader({ request }: Route.LoaderArgs): never {
  pageNotFound(request);
}

export default function LanguageSwitchTarget() {
  return null;
}
