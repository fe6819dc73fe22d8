import type { GradeName } from "../learning/stage";

/**
 * How the player reads (ADR 141; ADR 109 kept them on the device): the pause after the term, whether it goes on to the
 * next card without a grade, the grade a headset's or lock screen's "next" gives, and the speed. Stored with the
 * learner's settings on the server, chosen in Settings or on the player.
 */
export type PlayerSettings = { pause: number; goOn: boolean; nextGrade: GradeName; rate: number };

export const PAUSES = [1, 2, 3, 5, 8] as const;
export const RATES = [0.75, 0.9, 1, 1.1, 1.25] as const;
export const GRADE_NAMES: GradeName[] = ["again", "hard", "good", "easy"];
export const SLEEP_MINUTES = [0, 5, 15, 30, 60] as const;

export const DEFAULT_PLAYER_SETTINGS: PlayerSettings = { pause: 3, goOn: false, nextGrade: "good", rate: 1 };

/** What was stored, each value checked: anything else (none, an older shape, a hand edit) gives the default. */
export function parsePlayerSettings(stored: unknown): PlayerSettings {
  const value = (stored && typeof stored === "object" ? stored : {}) as Partial<Record<keyof PlayerSettings, unknown>>;
  return {
    pause: PAUSES.includes(value.pause as never) ? (value.pause as number) : DEFAULT_PLAYER_SETTINGS.pause,
    goOn: typeof value.goOn === "boolean" ? value.goOn : DEFAULT_PLAYER_SETTINGS.goOn,
    nextGrade: GRADE_NAMES.includes(value.nextGrade as never)
      ? (value.nextGrade as GradeName)
      : DEFAULT_PLAYER_SETTINGS.nextGrade,
    rate: RATES.includes(value.rate as never) ? (value.rate as number) : DEFAULT_PLAYER_SETTINGS.rate,
  };
}

/** The settings as the form sends them (the player's own controls send the same fields). */
export function playerSettingsForm(settings: PlayerSettings): Record<string, string> {
  return {
    intent: "player",
    pause: String(settings.pause),
    rate: String(settings.rate),
    nextGrade: settings.nextGrade,
    ...(settings.goOn ? { goOn: "on" } : {}),
  };
}
