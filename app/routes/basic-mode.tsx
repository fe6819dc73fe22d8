import type { Route } from "./+types/basic-mode";
import { getInstance } from "../i18n/i18n.server";
import { isBasicMode } from "../http/basic-mode";
import { basicModeHeader } from "../http/basic-mode.server";
import { safeRedirect } from "../http/redirect.server";

/** The footer's switch between basic HTML and the full site: remembered for a year, back to the same page. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const mode = form.get("mode");
  if (!isBasicMode(mode)) {
    return new Response(getInstance(context).t("errors.badRequest"), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return safeRedirect(form.get("redirectTo"), "/", { headers: { "Set-Cookie": await basicModeHeader(mode) } });
}
