import { useCallback, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { playerSettingsForm, type PlayerSettings } from "./settings";

/**
 * The player's settings as the page loaded them from the server (ADR 141): a change applies at once and is saved for the
 * learner through the page's action, so Settings and the learner's other devices read it too. Offline, the change still
 * applies on this page. One save at a time: changes made while one is on its way are saved together once it is done
 * (a second submission would abort the first, whose aborted request the router leaves unhandled).
 */
export function usePlayerSettings(
  initial: PlayerSettings,
): [PlayerSettings, (change: Partial<PlayerSettings>) => void] {
  const [settings, setSettings] = useState(initial);
  const [changes, setChanges] = useState(0);
  const unsaved = useRef<PlayerSettings | null>(null);
  const current = useRef(initial);
  const fetcher = useFetcher();
  const { submit, state } = fetcher;
  const change = useCallback((part: Partial<PlayerSettings>) => {
    const next = { ...current.current, ...part };
    current.current = next;
    unsaved.current = next;
    setSettings(next);
    setChanges((count) => count + 1);
  }, []);
  // Runs after each change and each time the fetcher is done: a change made meanwhile goes then.
  useEffect(() => {
    if (changes === 0 || state !== "idle" || !unsaved.current) return;
    const next = unsaved.current;
    unsaved.current = null;
    void submit(playerSettingsForm(next), { method: "post" }).catch(() => undefined);
  }, [state, changes, submit]);
  return [settings, change];
}
