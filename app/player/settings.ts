import { useCallback, useState } from "react";
import type { GradeName } from "../learning/stage";

/**
 * How the player reads (ADR 109), kept on the device (localStorage): the pause after the term, whether it goes on to
 * the next card without a grade, the grade a headset's or lock screen's "next" gives, and the speed.
 */
export type PlayerSettings = { pause: number; goOn: boolean; nextGrade: GradeName; rate: number };

export const PAUSES = [1, 2, 3, 5, 8] as const;
export const RATES = [0.75, 0.9, 1, 1.1, 1.25] as const;
export const GRADE_NAMES: GradeName[] = ["again", "hard", "good", "easy"];
export const SLEEP_MINUTES = [0, 5, 15, 30, 60] as const;

const KEY = "polyglot-player";
export const DEFAULT_SETTINGS: PlayerSettings = { pause: 3, goOn: false, nextGrade: "good", rate: 1 };

/** What was stored, each value checked: anything else (an older version, a hand edit) gives the default. */
export function parseSettings(stored: string | null): PlayerSettings {
  let value: Partial<Record<keyof PlayerSettings, unknown>> = {};
  try {
    value = stored ? (JSON.parse(stored) as typeof value) : {};
  } catch {
    // Unreadable: the defaults.
  }
  return {
    pause: PAUSES.includes(value.pause as never) ? (value.pause as number) : DEFAULT_SETTINGS.pause,
    goOn: typeof value.goOn === "boolean" ? value.goOn : DEFAULT_SETTINGS.goOn,
    nextGrade: GRADE_NAMES.includes(value.nextGrade as never)
      ? (value.nextGrade as GradeName)
      : DEFAULT_SETTINGS.nextGrade,
    rate: RATES.includes(value.rate as never) ? (value.rate as number) : DEFAULT_SETTINGS.rate,
  };
}

function readStored(): PlayerSettings {
  try {
    return parseSettings(localStorage.getItem(KEY));
  } catch {
    // Storage refused (a private mode): the defaults, for this page.
    return DEFAULT_SETTINGS;
  }
}

export function usePlayerSettings(): [PlayerSettings, (change: Partial<PlayerSettings>) => void] {
  // The player renders in the browser only: the stored settings can be read at once.
  const [settings, setSettings] = useState(readStored);
  const change = useCallback((part: Partial<PlayerSettings>) => {
    setSettings((last) => {
      const next = { ...last, ...part };
      try {
        localStorage.setItem(KEY, JSON.stringify(next));
      } catch {
        // Not kept; still used on this page.
      }
      return next;
    });
  }, []);
  return [settings, change];
}
