import { data } from "react-router";
import type { Route } from "./+types/basic-mode";
import { isBasicMode } from "../http/basic-mode";
import { basicModeHeader } from "../http/basic-mode.server";
import { safeRedirect } from "../http/redirect.server";

/** The footer's switch between basic HTML and the full site: remembered for a year, back to the same page. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const mode = form.get("mode");
  if (!isBasicMode(mode)) return data({ error: "Unknown mode" }, { status: 400 });
  return safeRedirect(form.get("redirectTo"), "/", { headers: { "Set-Cookie": await basicModeHeader(mode) } });
}
