import { Link } from "react-router";
import type { Route } from "./+types/($lang).account.review_.offline";
import { useTranslation } from "../i18n/use-translation";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";
import { requireLearner } from "../learning/learner.server";
import { reviewShortcutsOn } from "../learning/review-shortcuts.server";
import type { PageHandle } from "../ui/seo";
import { OfflineStatus } from "../learning/offline-status";
import { useDeviceReview } from "../learning/device-review";
import { DeviceReviewScreen } from "../learning/device-review-screen";

export const handle: PageHandle = { title: "learning:review.title", focus: "sign-out" };

/**
 * The learner the page was rendered for (the device shows only the cards and grades it stored for them), and whether
 * they use the review's keys, as when the page was stored.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  return { owner: requireLearner(context).user.id, shortcuts: await reviewShortcutsOn(request) };
}

/**
 * The review from the cards stored on this device (ADR 065), where the service worker sends the review when the
 * network fails: all four modes, typed answers checked here by the server's own rule, grades kept in IndexedDB with
 * the moment they were given and sent as soon as the server answers again (app/learning/device-review.ts).
 */
export default function OfflineReviewPage({ loaderData }: Route.ComponentProps) {
  const { owner, shortcuts } = loaderData;
  const { t } = useTranslation("learning");
  // The stored page carries the parts of speech's translations as the online review does: the server render resolves
  // one, so their namespace goes with the page (app/i18n/used-namespaces.server.ts).
  useTranslation("lists").t("partsOfSpeech.noun");
  const to = useLocalePath();
  const review = useDeviceReview(owner);
  const { sync, card, cards, now } = review;

  const status = <OfflineStatus sync={sync} pending={review.pending} />;

  if (!review.loaded) {
    return (
      <section className="review-page">
        <h1>{t("review.title")}</h1>
        <p className="hint">{t("common:offline.loading")}</p>
        <p className="actions">
          <Link to={to(PATHS.review)}>{t("common:offline.reviewOnline")}</Link>
        </p>
      </section>
    );
  }

  if (!card) {
    const later = cards.find((candidate) => candidate.due < (review.deck?.dayEnd ?? 0));
    return (
      <section className="review-page">
        <h1>{t("review.title")}</h1>
        {status}
        <p className="lead">
          {review.deck === null
            ? t("common:offline.nothingStored")
            : later
              ? t("review.nextIn", { count: Math.max(1, Math.ceil((later.due - now) / 60_000)) })
              : t("review.done")}
        </p>
        <p className="actions">
          <Link to={to(PATHS.learnerHome)} reloadDocument>
            {t("review.backHome")}
          </Link>
        </p>
      </section>
    );
  }

  return (
    <DeviceReviewScreen
      review={review}
      card={card}
      shortcuts={shortcuts}
      done={review.pending + sync.sent}
      status={status}
    />
  );
}
