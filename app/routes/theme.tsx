import type { Route } from "./+types/theme";
import { getInstance } from "../i18n/i18n.server";
import { safeRedirect } from "../http/redirect.server";
import { safeTarget } from "../http/navigation";
import { isTheme } from "../theme/theme";
import { themeCookie } from "../theme/theme.server";

/** The theme choice in the footer: remembers it for a year and returns to the same page, which the server renders in it. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const theme = form.get("theme");
  if (!isTheme(theme)) {
    return new Response(getInstance(context).t("errors.badRequest"), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return safeRedirect(safeTarget(form.get("redirectTo")) ?? "/", "/", {
    headers: { "Set-Cookie": await themeCookie.serialize(theme) },
  });
}
