import { Form } from "react-router";
import { useTranslation } from "../i18n/use-translation";
import { GRADE_NAMES, PAUSES, RATES, type PlayerSettings } from "./settings";

/**
 * The player's settings on the Settings page (ADR 141): a form of its own that posts and redirects, with or without
 * JavaScript. The player's own controls save the same fields.
 */
export function PlayerSettingsSection({ settings, error }: { settings: PlayerSettings; error: boolean }) {
  const { t, i18n } = useTranslation("learning");
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  // Rendered again with the stored values after a save.
  const key = JSON.stringify(settings);
  return (
    <section className="settings-section" id="player-settings" aria-labelledby="player-title">
      <h2 id="player-title">{t("settings.playerTitle")}</h2>
      <Form method="post" className="stack" aria-labelledby="player-title" key={key}>
        <input type="hidden" name="intent" value="player" />
        <p className="hint">{t("settings.playerHint")}</p>
        {error ? (
          <p className="field-error" role="alert">
            {t("settings.errors.player")}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor="settings-player-pause">{t("account:player.pauseLength")}</label>
          <select id="settings-player-pause" name="pause" defaultValue={String(settings.pause)}>
            {PAUSES.map((seconds) => (
              <option key={seconds} value={seconds}>
                {t("account:player.seconds", { count: seconds })}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="settings-player-rate">{t("account:player.speed")}</label>
          <select id="settings-player-rate" name="rate" defaultValue={String(settings.rate)}>
            {RATES.map((rate) => (
              <option key={rate} value={rate}>{`${number(rate)}×`}</option>
            ))}
          </select>
        </div>
        <label className="checkbox">
          <input type="checkbox" name="goOn" defaultChecked={settings.goOn} /> {t("account:player.goOn")}
        </label>
        <div className="field">
          <label htmlFor="settings-player-next">{t("account:player.nextGrade")}</label>
          <select id="settings-player-next" name="nextGrade" defaultValue={settings.nextGrade}>
            {GRADE_NAMES.map((name) => (
              <option key={name} value={name}>
                {t(`review.grades.${name}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t("settings.savePlayer")}
        </button>
      </Form>
    </section>
  );
}
