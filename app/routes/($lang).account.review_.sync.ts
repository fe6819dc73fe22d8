import type { Route } from "./+types/($lang).account.review_.sync";
import { getDatabase } from "../db/db.server";
import { pageNotFound } from "../http/errors";
import { readForm } from "../http/request-body.server";
import { requireLearner } from "../learning/learner.server";
import { applyOfflineGrades, offlineGradesSchema } from "../learning/offline-review.server";

/**
 * Grades given offline (ADR 065), sent by the learner's device as a form (`owner`: the learner the device stored them
 * for; `grades`: a JSON list of `{ termId, version, grade, at }`). Answers JSON: what became of each grade, in the
 * order sent. Grades stored for another learner are refused as a whole (409) and stay on the device.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = requireLearner(context);
  const form = await readForm(request);
  if (form.get("owner") !== user.id) return Response.json({ error: "owner" }, { status: 409 });
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(form.get("grades") ?? ""));
  } catch {
    return Response.json({ error: "grades" }, { status: 400 });
  }
  const grades = offlineGradesSchema.safeParse(parsed);
  if (!grades.success) return Response.json({ error: "grades" }, { status: 400 });
  const outcomes = await applyOfflineGrades(await getDatabase(), user.id, grades.data);
  return Response.json({ outcomes }, { headers: { "Cache-Control": "private, no-store" } });
}

/** Only the device's POST lives here. */
export function loader({ request }: Route.LoaderArgs): never {
  pageNotFound(request);
}
