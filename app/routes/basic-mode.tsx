import { data } from "react-router";
import type { Route } from "./+types/basic-mode";
import { isBasicMode } from "../http/basic-mode";
import { basicModeHeader } from "../http/basic-mode.server";
import { pageNotFound } from "../http/errors";
import { safeRedirect } from "../http/redirect.server";
import { readForm } from "../http/request-body.server";

/** The footer's switch between basic HTML and the full site: remembered for a year, back to the same page. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const mode = form.get("mode");
  if (!isBasicMode(mode)) throw data(null, { status: 400 });
  return safeRedirect(form.get("redirectTo"), "/", { headers: { "Set-Cookie": await basicModeHeader(mode) } });
}

/** Only the form POST lives here: a visit is the 404 page, and a refused POST gets the translated error page. */
export function loader({ request }: Route.LoaderArgs): never {
  pageNotFound(request);
}

export default function BasicModeTarget() {
  return null;
}
