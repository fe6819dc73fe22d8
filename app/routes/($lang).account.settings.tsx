import { useTranslation } from "../i18n/use-translation";
import { data, Form } from "react-router";
import type { Route } from "./+types/($lang).account.settings";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { requireLearner } from "../learning/learner.server";
import { SettingsForm, type SettingsValues } from "../learning/settings-form";
import {
  adoptTimeZone,
  readDictionary,
  readSettings,
  saveAutoplaySounds,
  saveDailyGoal,
  saveDictionary,
  saveSettings,
  settingsSchema,
  type SettingsErrors,
} from "../learning/settings.server";
import { z } from "zod";
import { defaultDictionary, parseDictionaryTemplate } from "../reading/dictionary";
import { studyLanguageName, studyLanguageOptions } from "../learning/study-language";
import { STUDY_LANGUAGES } from "../learning/vocabulary";
import { parseDailyGoal } from "../learning/daily-limits";
import { GoalForm } from "../learning/daily-goal";
import { LevelForm, StudyLanguageForm } from "../learning/preference-forms";
import { canonicalTimeZone, DEFAULT_TIME_ZONE, timeZoneOptions } from "../learning/time-zone";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import type { StalenessHandle } from "../edge/staleness";
import type { PageHandle } from "../ui/seo";
import { badRequest, dispatchIntents, flag, intent, text } from "../http/intents.server";
import { PATHS } from "../http/paths";
import { readShowReadings, saveShowReadings } from "../reading/readings-setting.server";
import { readKnownOnPageTurn, saveKnownOnPageTurn } from "../reading/known-words.server";
import { playerSettingsSchema, readPlayerSettings, savePlayerSettings } from "../player/player-settings.server";
import { PlayerSettingsSection } from "../player/player-settings-section";

/** Kept in memory for the learner until their next write: it shows their settings and nothing that moves by itself. */
export const handle: PageHandle & StalenessHandle = {
  title: "titles.settings",
  staleness: { dependsOn: ["learner"], keptForLearner: true },
};

export async function loader({ context }: Route.LoaderArgs) {
  const { user, owner } = requireLearner(context);
  const db = await getDatabase();
  const locale = requestLocale(context);
  const [settings, dictionary, showReadings, knownOnPageTurn, player] = await Promise.all([
    readSettings(db, user.id),
    readDictionary(db, user.id, owner.language),
    readShowReadings(db, user.id),
    readKnownOnPageTurn(db, user.id),
    readPlayerSettings(db, user.id),
  ]);
  const values: SettingsValues = {
    newPerDay: String(settings.newPerDay),
    reviewsPerDay: String(settings.reviewsPerDay),
    timeZone: settings.timeZone ?? DEFAULT_TIME_ZONE,
    modes: settings.modes,
    desiredRetention: settings.desiredRetention.toFixed(2),
  };
  return {
    values,
    zones: timeZoneOptions(settings.timeZone),
    zoneChosen: settings.timeZone !== null,
    goal: settings.dailyGoalMinutes,
    studyLanguage: owner.language,
    level: user.level,
    languageOptions: studyLanguageOptions(STUDY_LANGUAGES, locale),
    showReadings,
    knownOnPageTurn,
    autoplaySounds: settings.autoplaySounds ?? false,
    player,
    dictionary: {
      template: dictionary ?? "",
      placeholder: defaultDictionary(owner.language),
      language: studyLanguageName(owner.language, locale),
    },
  };
}

// The forms this action takes, built once: building a schema costs more than parsing a form with it.
const dictionaryFields = z.object({ dictionary: text() });
const readingsFields = z.object({ showReadings: flag() });
const pageTurnFields = z.object({ knownOnPageTurn: flag() });
const soundsFields = z.object({ autoplaySounds: flag() });
const timeZoneFields = z.object({ timeZone: text() });
const goalFields = z.object({ goal: text(), goalOwn: text() });

export async function action({ request, context }: Route.ActionArgs) {
  const { user, owner } = requireLearner(context);
  const { t } = getInstance(context);
  const db = await getDatabase();
  const saved = (key: string) =>
    redirectWithToast(
      request,
      localePath(requestLocale(context), PATHS.settings),
      translatedToast(t, "success", `learning:toasts.${key}`),
    );
  return dispatchIntents(
    request,
    {
      settings: intent({
        schema: settingsSchema,
        run: async (settings) => {
          await saveSettings(db, user.id, settings);
          return saved("settingsSaved");
        },
        // The form again with what was sent, next to its errors.
        invalid: (errors, fields) => {
          const sent = (name: string) => [fields[name] ?? []].flat().map((v) => (typeof v === "string" ? v : ""));
          const values: SettingsValues = {
            newPerDay: sent("newPerDay")[0] ?? "",
            reviewsPerDay: sent("reviewsPerDay")[0] ?? "",
            timeZone: sent("timeZone")[0] ?? "",
            modes: sent("modes"),
            desiredRetention: sent("desiredRetention")[0] ?? "",
          };
          return data({ errors: errors as SettingsErrors, values }, { status: 400 });
        },
      }),
      // The dictionary of the study language the learner is studying now.
      dictionary: intent({
        schema: dictionaryFields,
        run: async ({ dictionary }) => {
          const parsed = parseDictionaryTemplate(dictionary);
          if (parsed.error)
            return data({ errors: null, values: null, dictionaryError: parsed.error, dictionary }, { status: 400 });
          await saveDictionary(db, user.id, owner.language, parsed.template);
          return saved("dictionarySaved");
        },
      }),
      // Readings over Japanese and Chinese words in the reader (the reader has the same switch).
      readings: intent({
        schema: readingsFields,
        run: async ({ showReadings }) => {
          await saveShowReadings(db, user.id, showReadings);
          return saved("readingsSaved");
        },
      }),
      // Turning a page in the reader marks its remaining new words as known (off by default).
      pageTurn: intent({
        schema: pageTurnFields,
        run: async ({ knownOnPageTurn }) => {
          await saveKnownOnPageTurn(db, user.id, knownOnPageTurn);
          return saved("pageTurnSaved");
        },
      }),
      // A term's sound plays by itself on the review's answer side (off by default).
      sounds: intent({
        schema: soundsFields,
        run: async ({ autoplaySounds }) => {
          await saveAutoplaySounds(db, user.id, autoplaySounds);
          return saved("soundsSaved");
        },
      }),
      // How the player reads (the player's own controls save the same fields, from its page).
      player: intent({
        schema: playerSettingsSchema,
        run: async (player) => {
          await savePlayerSettings(db, user.id, player);
          return saved("playerSaved");
        },
        invalid: () => data({ errors: null, values: null, playerError: true }, { status: 400 }),
      }),
      // The daily goal in minutes of review (also asked by the welcome).
      goal: intent({
        schema: goalFields,
        run: async ({ goal, goalOwn }) => {
          const minutes = parseDailyGoal(goal, goalOwn);
          if (minutes === null)
            return data({ errors: null, values: null, goalError: "goal.errors.invalid", goal: goalOwn }, 400);
          await saveDailyGoal(db, user.id, minutes);
          return redirectWithToast(
            request,
            localePath(requestLocale(context), PATHS.settings),
            translatedToast(t, "success", "learning:goal.saved", { count: minutes }),
          );
        },
      }),
      browserTimeZone: intent({
        schema: timeZoneFields,
        run: async ({ timeZone }) => {
          const zone = canonicalTimeZone(timeZone);
          if (!zone) return data({ errors: { timeZone: "settings.errors.timeZone" }, values: null }, 400);
          await adoptTimeZone(db, user.id, zone);
          return { errors: null, values: null };
        },
      }),
    },
    {
      // The settings form names no intent.
      fallback: "settings",
      unknown: badRequest,
      invalid: badRequest,
    },
  );
}

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("learning");
  const values = actionData?.values ?? loaderData.values;
  const errors = actionData?.errors ?? undefined;
  const dictionaryError = actionData && "dictionaryError" in actionData ? actionData.dictionaryError : null;
  const dictionaryValue =
    actionData && "dictionary" in actionData ? actionData.dictionary : loaderData.dictionary.template;
  return (
    <section className="narrow">
      <h1>{t("common:titles.settings")}</h1>
      <p className="lead">{t("settings.lead")}</p>
      {errors ? (
        <p className="error-text" role="alert">
          {t("errors.summary")}
        </p>
      ) : null}
      <section className="settings-section" aria-labelledby="preferences-title">
        <h2 id="preferences-title">{t("home.preferencesTitle")}</h2>
        <StudyLanguageForm current={loaderData.studyLanguage} options={loaderData.languageOptions} />
        <LevelForm current={loaderData.level} />
      </section>
      <GoalForm
        key={loaderData.goal}
        value={actionData && "goalError" in actionData ? (actionData.goal ?? "") : loaderData.goal}
        error={actionData && "goalError" in actionData ? actionData.goalError : null}
      />
      <section className="settings-section" aria-labelledby="review-title">
        <h2 id="review-title">{t("settings.reviewTitle")}</h2>
        <SettingsForm
          values={values}
          errors={errors}
          zones={timeZoneOptionsFor(loaderData.zones, values.timeZone)}
          zoneChosen={loaderData.zoneChosen || !!actionData?.values}
        />
      </section>
      <section className="settings-section" aria-labelledby="dictionary-title">
        <h2 id="dictionary-title">{t("settings.dictionaryTitle")}</h2>
        <Form method="post" className="stack" aria-labelledby="dictionary-title">
          <input type="hidden" name="intent" value="dictionary" />
          <label htmlFor="dictionary">{t("settings.dictionary", { language: loaderData.dictionary.language })}</label>
          <input
            id="dictionary"
            name="dictionary"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            maxLength={500}
            defaultValue={dictionaryValue}
            placeholder={loaderData.dictionary.placeholder}
            aria-invalid={!!dictionaryError}
            aria-describedby={dictionaryError ? "dictionary-hint dictionary-error" : "dictionary-hint"}
            key={dictionaryValue}
          />
          <p className="hint" id="dictionary-hint">
            {t("settings.dictionaryHint")}
          </p>
          {dictionaryError ? (
            <p className="field-error" id="dictionary-error" role="alert">
              {t(dictionaryError)}
            </p>
          ) : null}
          <button type="submit" className="button">
            {t("settings.saveDictionary")}
          </button>
        </Form>
      </section>
      <section className="settings-section" aria-labelledby="readings-title">
        <h2 id="readings-title">{t("settings.readingsTitle")}</h2>
        <Form method="post" className="stack" aria-labelledby="readings-title">
          <input type="hidden" name="intent" value="readings" />
          <label className="checkbox">
            <input
              type="checkbox"
              name="showReadings"
              defaultChecked={loaderData.showReadings}
              aria-describedby="readings-hint"
              key={String(loaderData.showReadings)}
            />{" "}
            {t("settings.showReadings")}
          </label>
          <p className="hint" id="readings-hint">
            {t("settings.readingsHint")}
          </p>
          <button type="submit" className="button">
            {t("settings.saveReadings")}
          </button>
        </Form>
      </section>
      <section className="settings-section" aria-labelledby="page-turn-title">
        <h2 id="page-turn-title">{t("settings.pageTurnTitle")}</h2>
        <Form method="post" className="stack" aria-labelledby="page-turn-title">
          <input type="hidden" name="intent" value="pageTurn" />
          <label className="checkbox">
            <input
              type="checkbox"
              name="knownOnPageTurn"
              defaultChecked={loaderData.knownOnPageTurn}
              aria-describedby="page-turn-hint"
              key={String(loaderData.knownOnPageTurn)}
            />{" "}
            {t("settings.knownOnPageTurn")}
          </label>
          <p className="hint" id="page-turn-hint">
            {t("settings.pageTurnHint")}
          </p>
          <button type="submit" className="button">
            {t("settings.savePageTurn")}
          </button>
        </Form>
      </section>
      <section className="settings-section" aria-labelledby="sounds-title">
        <h2 id="sounds-title">{t("settings.soundsTitle")}</h2>
        <Form method="post" className="stack" aria-labelledby="sounds-title">
          <input type="hidden" name="intent" value="sounds" />
          <label className="checkbox">
            <input
              type="checkbox"
              name="autoplaySounds"
              defaultChecked={loaderData.autoplaySounds}
              aria-describedby="sounds-hint"
              key={String(loaderData.autoplaySounds)}
            />{" "}
            {t("settings.autoplaySounds")}
          </label>
          <p className="hint" id="sounds-hint">
            {t("settings.soundsHint")}
          </p>
          <button type="submit" className="button">
            {t("settings.saveSounds")}
          </button>
        </Form>
      </section>
      <PlayerSettingsSection settings={loaderData.player} error={!!actionData && "playerError" in actionData} />
    </section>
  );
}

/** A refused zone stays selectable, so the form shows what was sent next to its error. */
function timeZoneOptionsFor(zones: string[], current: string): string[] {
  return !current || zones.includes(current) ? zones : [current, ...zones];
}
