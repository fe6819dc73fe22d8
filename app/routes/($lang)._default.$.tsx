import type { Route } from "./+types/($lang)._default.$";
import { pageNotFound } from "../http/errors";

/** Every address no route claims: a real 404 inside the layout, in the visitor's language. */
export function loader({ request }: Route.LoaderArgs) {
  pageNotFound(request);
}

export function action({ request }: Route.ActionArgs) {
  pageNotFound(request);
}

export default function NotFound() {
  return null;
}
