import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import type { Route } from "./+types/($lang).account.settings";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { requireLearner } from "../learning/learner.server";
import { SettingsForm, type SettingsValues } from "../learning/settings-form";
import {
  adoptTimeZone,
  parseSettingsForm,
  readDictionary,
  readSettings,
  saveDictionary,
  saveSettings,
} from "../learning/settings.server";
import { defaultDictionary, parseDictionaryTemplate } from "../reading/dictionary";
import { studyLanguageName } from "../learning/study-language";
import { canonicalTimeZone, DEFAULT_TIME_ZONE, timeZoneOptions } from "../learning/time-zone";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import type { PageHandle } from "../ui/seo";
import { readForm } from "../http/request-body.server";
import { PATHS } from "../http/paths";

export const handle: PageHandle = { title: "titles.settings" };

export async function loader({ context }: Route.LoaderArgs) {
  const { user, owner } = requireLearner(context);
  const db = await getDatabase();
  const [settings, dictionary] = await Promise.all([
    readSettings(db, user.id),
    readDictionary(db, user.id, owner.language),
  ]);
  const values: SettingsValues = {
    newPerDay: String(settings.newPerDay),
    reviewsPerDay: String(settings.reviewsPerDay),
    timeZone: settings.timeZone ?? DEFAULT_TIME_ZONE,
    modes: settings.modes,
  };
  return {
    values,
    zones: timeZoneOptions(settings.timeZone),
    zoneChosen: settings.timeZone !== null,
    dictionary: {
      template: dictionary ?? "",
      placeholder: defaultDictionary(owner.language),
      language: studyLanguageName(owner.language, requestLocale(context)),
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = requireLearner(context);
  const { t } = getInstance(context);
  const form = await readForm(request);
  const db = await getDatabase();
  if (form.get("intent") === "dictionary") {
    // The dictionary of the study language the learner is studying now.
    const { owner } = requireLearner(context);
    const parsed = parseDictionaryTemplate(form.get("dictionary"));
    if (parsed.error)
      return data(
        { errors: null, values: null, dictionaryError: parsed.error, dictionary: String(form.get("dictionary") ?? "") },
        { status: 400 },
      );
    await saveDictionary(db, user.id, owner.language, parsed.template);
    return redirectWithToast(
      request,
      localePath(requestLocale(context), PATHS.settings),
      translatedToast(t, "success", "learning:toasts.dictionarySaved"),
    );
  }
  if (form.get("intent") === "browserTimeZone") {
    const zone = canonicalTimeZone(form.get("timeZone"));
    if (!zone) return data({ errors: { timeZone: "settings.errors.timeZone" }, values: null }, 400);
    await adoptTimeZone(db, user.id, zone);
    return { errors: null, values: null };
  }
  const parsed = parseSettingsForm(form);
  if (parsed.errors) {
    const values: SettingsValues = {
      newPerDay: String(form.get("newPerDay") ?? ""),
      reviewsPerDay: String(form.get("reviewsPerDay") ?? ""),
      timeZone: String(form.get("timeZone") ?? ""),
      modes: form.getAll("modes").map(String),
    };
    return data({ errors: parsed.errors, values }, { status: 400 });
  }
  await saveSettings(db, user.id, parsed.value);
  return redirectWithToast(
    request,
    localePath(requestLocale(context), PATHS.settings),
    translatedToast(t, "success", "learning:toasts.settingsSaved"),
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
      <SettingsForm
        values={values}
        errors={errors}
        zones={timeZoneOptionsFor(loaderData.zones, values.timeZone)}
        zoneChosen={loaderData.zoneChosen || !!actionData?.values}
      />
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
  );
}

/** A refused zone stays selectable, so the form shows what was sent next to its error. */
function timeZoneOptionsFor(zones: string[], current: string): string[] {
  return !current || zones.includes(current) ? zones : [current, ...zones];
}
