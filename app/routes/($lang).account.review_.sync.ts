import type { Route } from "./+types/($lang).account.review_.sync";
import { getDatabase } from "../db/db.server";
import { pageNotFound } from "../http/errors";
import { readForm } from "../http/request-body.server";
import { requestLocale } from "../i18n/i18n.server";
import { requireLearner } from "../learning/learner.server";
import { applyOfflineGrades, cardsBack, offlineGradesSchema } from "../learning/offline-review.server";

/**
 * Grades given on the device (ADRs 065, 117), sent by the learner's device as a form (`owner`: the learner the device
 * stored them for; `grades`: a JSON list of `{ termId, version, grade, at }`). Answers JSON: what became of each
 * grade, in the order sent (`outcomes`), and the cards of applied grades that come back before the day ends (`cards`).
 * Grades stored for another learner are refused as a whole (409) and stay on the device.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { user, owner } = requireLearner(context);
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
  const db = await getDatabase();
  const outcomes = await applyOfflineGrades(db, user.id, grades.data);
  const applied = [...new Set(grades.data.filter((_, index) => outcomes[index] === "applied").map((g) => g.termId))];
  const cards = await cardsBack(db, owner, applied, requestLocale(context));
  return Response.json({ outcomes, cards }, { headers: { "Cache-Control": "private, no-store" } });
}

/** Only the device's POST lives here. */
export function loader({ request }: Route.LoaderArgs): never {
  pageNotFound(request);
}
