import { useTranslation } from "../i18n/use-translation";
import type { GradeName } from "../learning/stage";
import { GRADE_NAMES, PAUSES, RATES, SLEEP_MINUTES, type PlayerSettings } from "./settings";

type Props = {
  grades: Record<GradeName, string>;
  settings: PlayerSettings;
  change: (part: Partial<PlayerSettings>) => void;
  sleepAt: number | null;
  setSleepAt: (at: number | null) => void;
};

/** The player's settings on its page (ADR 109, 141), applied as they change and saved for the learner. */
export function PlayerSettingsForm({ grades, settings, change, sleepAt, setSleepAt }: Props) {
  const { t, i18n } = useTranslation("account");
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  const clock = (at: number) => new Intl.DateTimeFormat(i18n.language, { timeStyle: "short" }).format(at);
  return (
    <details className="player-settings">
      <summary>{t("player.settings")}</summary>
      <div className="field">
        <label htmlFor="player-pause">{t("player.pauseLength")}</label>
        <select
          id="player-pause"
          value={settings.pause}
          onChange={(event) => change({ pause: Number(event.target.value) })}
        >
          {PAUSES.map((seconds) => (
            <option key={seconds} value={seconds}>
              {t("player.seconds", { count: seconds })}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="player-rate">{t("player.speed")}</label>
        <select
          id="player-rate"
          value={settings.rate}
          onChange={(event) => change({ rate: Number(event.target.value) })}
        >
          {RATES.map((rate) => (
            <option key={rate} value={rate}>
              {`${number(rate)}×`}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <input
          id="player-go-on"
          type="checkbox"
          checked={settings.goOn}
          onChange={(event) => change({ goOn: event.target.checked })}
        />
        <label htmlFor="player-go-on">{t("player.goOn")}</label>
      </div>
      <div className="field">
        <label htmlFor="player-next">{t("player.nextGrade")}</label>
        <select
          id="player-next"
          value={settings.nextGrade}
          onChange={(event) => change({ nextGrade: event.target.value as GradeName })}
        >
          {GRADE_NAMES.map((name) => (
            <option key={name} value={name}>
              {grades[name]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="player-sleep">{t("player.sleep")}</label>
        <select
          id="player-sleep"
          value=""
          onChange={(event) => {
            const minutes = Number(event.target.value);
            setSleepAt(minutes > 0 ? Date.now() + minutes * 60_000 : null);
          }}
        >
          <option value="" disabled>
            {sleepAt === null ? t("player.sleepOff") : t("player.sleepsAt", { time: clock(sleepAt) })}
          </option>
          {SLEEP_MINUTES.map((minutes) => (
            <option key={minutes} value={minutes}>
              {minutes === 0 ? t("player.sleepNone") : t("player.minutes", { count: minutes })}
            </option>
          ))}
        </select>
      </div>
    </details>
  );
}
