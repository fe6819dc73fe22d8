import { data } from "react-router";
import type { Route } from "./+types/theme";
import { safeRedirect } from "../http/redirect.server";
import { safeTarget } from "../http/navigation";
import { isTheme } from "../theme/theme";
import { themeCookie } from "../theme/theme.server";

/** The theme choice in the footer: remembers it for a year and returns to the same page, which the server renders in it. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const theme = form.get("theme");
  if (!isTheme(theme)) throw data(null, { status: 400 });
  return safeRedirect(safeTarget(form.get("redirectTo")) ?? "/", "/", {
    headers: { "Set-Cookie": await themeCookie.serialize(theme) },
  });
}
