import { lazy, Suspense } from "react";
import { Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { useHydrated } from "remix-utils/use-hydrated";
import type { Route } from "./+types/($lang)._play.account.player._index";
import { getDatabase } from "../db/db.server";
import { PATHS } from "../http/paths";
import { requestLocale } from "../i18n/i18n.server";
import { useLocalePath } from "../i18n/use-locale";
import { useTranslation } from "../i18n/use-translation";
import { dayMemory, learnerDayOf } from "../learning/daily.server";
import { requireLearner } from "../learning/learner.server";
import { studyLanguageName } from "../learning/study-language";
import { playerCursor, playerDeck } from "../player/player.server";
import { playerSettingsSchema, readPlayerSettings, savePlayerSettings } from "../player/player-settings.server";
import { badRequest, dispatchIntents, intent } from "../http/intents.server";
import { env } from "../config/env.server";
import { serverVoicesFor } from "../player/speech-provider.server";
import { GRADE_NAMES } from "../player/settings";
import type { GradeName } from "../learning/stage";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

/**
 * Kept for the learner between their writes, as their other pages are: the day's cards change only with a write, when
 * a card falls due or when the day ends (`changesAt`, the moment the learner's day is read until).
 */
export const handle: PageHandle & StalenessHandle<{ changesAt: number }> = {
  title: "titles.player",
  staleness: { dependsOn: ["learner"], changesAt: ({ changesAt }) => [changesAt], keptForLearner: true },
};

/** The player's own chunk: loaded by this page only, once it runs in the browser. */
const Player = lazy(() => import("../player/player.client"));

/** The day's due cards, with what the player reads of each (ADR 109). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, owner } = requireLearner(context);
  const locale = requestLocale(context);
  const after = playerCursor(request);
  const db = await getDatabase();
  // The day and queue the review and the header read: one read per request, kept while the learner's data holds.
  const known = await learnerDayOf(context, db, owner, dayMemory(request, user));
  const [deck, settings] = await Promise.all([
    playerDeck(db, owner, known, after),
    readPlayerSettings(db, owner.userId),
  ]);
  const serverVoices = serverVoicesFor(env.speech, [owner.language, locale]);
  return {
    deck,
    settings,
    serverVoices,
    locale,
    languageName: studyLanguageName(owner.language, locale),
    changesAt: known.validUntil,
  };
}

/** The player's own controls save its settings here (ADR 141); the page is not read again for it. */
export async function action({ request, context }: Route.ActionArgs) {
  const { owner } = requireLearner(context);
  const db = await getDatabase();
  return dispatchIntents(
    request,
    {
      player: intent({
        schema: playerSettingsSchema,
        run: async (settings) => {
          await savePlayerSettings(db, owner.userId, settings);
          return { saved: true };
        },
      }),
    },
    { unknown: badRequest, invalid: badRequest },
  );
}

/** Saving a setting leaves the cards being read as they are. */
export const shouldRevalidate = ({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) =>
  formMethod === "POST" ? false : defaultShouldRevalidate;

export default function PlayerPage({ loaderData }: Route.ComponentProps) {
  const { deck, settings, serverVoices, locale, languageName } = loaderData;
  const { t } = useTranslation("account");
  const to = useLocalePath();
  const hydrated = useHydrated();
  // Rendered on the server too, so the document carries the review's words the player uses.
  const labels = {
    legend: t("learning:review.gradeLegend"),
    grades: Object.fromEntries(GRADE_NAMES.map((name) => [name, t(`learning:review.grades.${name}`)])) as Record<
      GradeName,
      string
    >,
  };
  return (
    <section className="play player">
      <h1>{t("common:titles.player")}</h1>
      <p className="lead">{t("player.intro", { language: languageName })}</p>
      {deck.cards.length === 0 ? (
        <p>{t("player.nothingDue")}</p>
      ) : hydrated ? (
        <Suspense fallback={<p className="hint">{t("player.loading")}</p>}>
          <Player
            key={deck.cards[0]?.id ?? "none"}
            deck={deck}
            settings={settings}
            serverVoices={serverVoices}
            interfaceLanguage={locale}
            languageName={languageName}
            labels={labels}
          />
        </Suspense>
      ) : (
        <p className="notice">{t("player.needsJavaScript")}</p>
      )}
      {deck.cards.length > 0 ? (
        <details className="player-list" open={!hydrated}>
          <summary>{t("player.listTitle", { count: Math.max(deck.total, deck.cards.length) })}</summary>
          <ol>
            {deck.cards.map((card) => (
              <li key={card.id}>
                <span lang={deck.language} className="player-term">
                  {card.text}
                </span>
                {card.meaning ? <> – {card.meaning}</> : null}
                {card.example ? (
                  <p className="hint">
                    <span lang={deck.language}>{card.example.sentence}</span>
                    {card.example.translation ? <> – {card.example.translation}</> : null}
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
          {deck.next ? (
            <p>
              <Link to={`${to(PATHS.player)}?after=${encodeURIComponent(deck.next)}`} rel="nofollow">
                {t("player.more")}
              </Link>
            </p>
          ) : null}
        </details>
      ) : null}
      <p>
        <Link to={to(PATHS.playerSoon)}>{t("account.playerSoonLink")}</Link>
      </p>
    </section>
  );
}
