import { useTranslation } from "react-i18next";
import { data } from "react-router";
import type { Route } from "./+types/($lang).account.settings";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { requireLearner } from "../learning/learner.server";
import { SettingsForm, type SettingsValues } from "../learning/settings-form";
import { adoptTimeZone, parseSettingsForm, readSettings, saveSettings } from "../learning/settings.server";
import { canonicalTimeZone, DEFAULT_TIME_ZONE, timeZoneOptions } from "../learning/time-zone";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import type { PageHandle } from "../ui/seo";
import { readForm } from "../http/request-body.server";
import { PATHS } from "../http/paths";

export const handle: PageHandle = { title: "titles.settings" };

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireLearner(context);
  const settings = await readSettings(await getDatabase(), user.id);
  const values: SettingsValues = {
    newPerDay: String(settings.newPerDay),
    reviewsPerDay: String(settings.reviewsPerDay),
    timeZone: settings.timeZone ?? DEFAULT_TIME_ZONE,
    modes: settings.modes,
  };
  return { values, zones: timeZoneOptions(settings.timeZone), zoneChosen: settings.timeZone !== null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = requireLearner(context);
  const { t } = getInstance(context);
  const form = await readForm(request);
  const db = await getDatabase();
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
    </section>
  );
}

/** A refused zone stays selectable, so the form shows what was sent next to its error. */
function timeZoneOptionsFor(zones: string[], current: string): string[] {
  return !current || zones.includes(current) ? zones : [current, ...zones];
}
