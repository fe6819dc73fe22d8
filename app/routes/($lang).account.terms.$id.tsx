import { z } from "zod";
import type { Route } from "./+types/($lang).account.terms.$id";
import { invalidParam, pageNotFound } from "../http/errors";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.term" };

/** Term ids are UUIDs; anything else fails the route's validation rule. */
const termIdSchema = z.uuid();

export function loader({ params, request }: Route.LoaderArgs) {
  if (!termIdSchema.safeParse(params.id).success) invalidParam(request);
  // No term is stored under this id for this learner.
  pageNotFound(request);
}

export default function TermPage() {
  return null;
}
