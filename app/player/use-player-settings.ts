import { useCallback, useState } from "react";
import { useFetcher } from "react-router";
import { playerSettingsForm, type PlayerSettings } from "./settings";

/**
 * The player's settings as the page loaded them from the server (ADR 141): a change applies at once and is saved for the
 * learner through the page's action, so Settings and the learner's other devices read it too. Offline, the change still
 * applies on this page.
 */
export function usePlayerSettings(
  initial: PlayerSettings,
): [PlayerSettings, (change: Partial<PlayerSettings>) => void] {
  const [settings, setSettings] = useState(initial);
  const fetcher = useFetcher();
  const { submit } = fetcher;
  const change = useCallback(
    (part: Partial<PlayerSettings>) => {
      setSettings((last) => {
        const next = { ...last, ...part };
        void submit(playerSettingsForm(next), { method: "post" }).catch(() => undefined);
        return next;
      });
    },
    [submit],
  );
  return [settings, change];
}
