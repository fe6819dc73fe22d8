import { data } from "react-router";
import type { Route } from "./+types/theme";
import { pageNotFound } from "../http/errors";
import { safeRedirect } from "../http/redirect.server";
import { safeTarget } from "../http/navigation";
import { readForm } from "../http/request-body.server";
import { isTheme } from "../theme/theme";
import { themeCookie } from "../theme/theme.server";

/** The theme choice in the footer: remembers it for a year and returns to the same page, which the server renders in it. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const theme = form.get("theme");
  if (!isTheme(theme)) throw data(null, { status: 400 });
  return safeRedirect(safeTarget(form.get("redirectTo")) ?? "/", "/", {
    headers: { "Set-Cookie": await themeCookie.serialize(theme) },
  });
}

/** Only the form POST lives here: a visit is the 404 page, and a refused POST gets the translated error page. */
export function loader({ request }: Route.LoaderArgs): never {
  pageNotFound(request);
}

export default function ThemeTarget() {
  return null;
}
