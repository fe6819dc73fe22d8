import { useCallback, useEffect, useRef, useState } from "react";
import { PATHS } from "../http/paths";
import { useTranslation } from "../i18n/use-translation";
import { pendingGrades, storeGrade, SYNCED_EVENT, syncGrades } from "../learning/offline-store.client";
import type { GradeName } from "../learning/stage";
import type { PlayerCard, PlayerDeck } from "./player.server";
import { PlayerSettingsForm } from "./player-settings";
import { useMediaSession } from "./media-session";
import { GRADE_NAMES, type PlayerSettings } from "./settings";
import { usePlayerSettings } from "./use-player-settings";
import { playSound, say, silence, useVoices, voiceFor, wait, type ServerVoices } from "./speech";

export type PlayerLabels = { legend: string; grades: Record<GradeName, string> };
type Props = {
  deck: PlayerDeck;
  settings: PlayerSettings;
  /** The server's voices, when the deployment has a provider (ADR 140). */
  serverVoices: ServerVoices;
  interfaceLanguage: string;
  languageName: string;
  labels: PlayerLabels;
};
type Phase = "ready" | "playing" | "listened" | "paused" | "done";
/** What asking for the next batch gave: new cards, none (the day's end, or only cards already there), or no answer. */
type Fetched = "added" | "none" | "failed";

/**
 * The day's review read aloud (ADR 109): for each card the term in the study language's voice, the pause the learner
 * set, the meaning in the interface language's voice, then the example. A grade (a button, or "next" on a headset or
 * lock screen) is stored in the offline review's queue and sent from there, once; a card left without one is not
 * reviewed.
 */
export default function Player({
  deck,
  settings: stored,
  serverVoices,
  interfaceLanguage,
  languageName,
  labels,
}: Props) {
  const { t } = useTranslation("account");
  const voices = useVoices();
  const [settings, changeSettings] = usePlayerSettings(stored);
  const [index, setIndex] = useState(0);
  const [phase, setPhase] = useState<Phase>("ready");
  const [pending, setPending] = useState<number | null>(null);
  const [sleepAt, setSleepAt] = useState<number | null>(null);
  const [graded, setGraded] = useState(0);
  const run = useRef(0);
  const latest = useRef({ settings, voices });
  useEffect(() => {
    latest.current = { settings, voices };
  }, [settings, voices]);
  // The cards so far: the page's batch, then each next batch the player asks for before it reaches their end.
  const [cards, setCards] = useState(deck.cards);
  const [nextBatch, setNextBatch] = useState(deck.next);
  const [moreFailed, setMoreFailed] = useState(false);
  const batches = useRef({ cards: deck.cards, next: deck.next, loading: null as Promise<Fetched> | null });
  const card: PlayerCard | null = cards[index] ?? null;

  /** Fetches the next batch once (a call while it is on its way waits for it). */
  const loadMore = useCallback((): Promise<Fetched> => {
    const now = batches.current;
    if (!now.next) return Promise.resolve("none");
    now.loading ??= fetch(`${PATHS.playerCards}?after=${encodeURIComponent(now.next)}`, {
      headers: { Accept: "application/json" },
    })
      .then((response) => (response.ok ? (response.json() as Promise<PlayerDeck>) : Promise.reject(response)))
      .then((more) => {
        const have = new Set(now.cards.map((each) => each.id));
        const added = more.cards.filter((each) => !have.has(each.id));
        now.cards = [...now.cards, ...added];
        now.next = more.next;
        setCards(now.cards);
        setNextBatch(more.next);
        setMoreFailed(false);
        return added.length > 0 ? ("added" as const) : ("none" as const);
      })
      .catch(() => {
        setMoreFailed(true);
        return "failed" as const;
      })
      .finally(() => {
        now.loading = null;
      });
    return now.loading;
  }, []);

  /** Whether card `at` is there, the next batch fetched for it if needed (a batch of cards already heard is skipped). */
  const reach = useCallback(
    async (at: number) => {
      for (let tries = 0; at >= batches.current.cards.length && batches.current.next && tries < 3; tries++)
        if ((await loadMore()) === "failed") break;
      return at < batches.current.cards.length;
    },
    [loadMore],
  );

  // The next batch is asked for while the last cards of this one are read, so the player goes on without a gap.
  useEffect(() => {
    if (nextBatch && !moreFailed && index >= cards.length - 5) void loadMore();
  }, [index, cards.length, nextBatch, moreFailed, loadMore]);

  const refreshPending = useCallback(async () => {
    setPending((await pendingGrades(deck.owner).catch(() => [])).length);
  }, [deck.owner]);

  const stop = useCallback((next: Phase = "paused") => {
    run.current++;
    silence();
    setPhase(next);
  }, []);

  /** Reads cards from `from` on; any later start, pause or grade ends this run. */
  const play = useCallback(
    async (from: number) => {
      const mine = ++run.current;
      silence();
      for (let at = from; ; at++) {
        if (!(await reach(at))) {
          if (run.current !== mine) return;
          setIndex(at);
          setPhase(batches.current.next ? "paused" : "done");
          return;
        }
        if (run.current !== mine) return;
        const current = batches.current.cards[at]!;
        setIndex(at);
        setPhase("playing");
        const { settings: now, voices: listed } = latest.current;
        const study = voiceFor(listed.list, deck.language);
        const own = voiceFor(listed.list, interfaceLanguage);
        const steps: (() => Promise<void>)[] = [
          // The term's own sound when it has one (a deck's recording), else the voice.
          () =>
            current.sound
              ? playSound(current.sound, now.rate).then(() => undefined)
              : say(current.text, deck.language, study, now.rate, serverVoices),
          () => wait(now.pause * 1000),
          () =>
            current.meaning ? say(current.meaning, interfaceLanguage, own, now.rate, serverVoices) : Promise.resolve(),
          () =>
            current.example
              ? say(current.example.sentence, deck.language, study, now.rate, serverVoices)
              : Promise.resolve(),
        ];
        for (const step of steps) {
          await step();
          if (run.current !== mine) return;
        }
        if (!latest.current.settings.goOn) {
          setPhase("listened");
          return;
        }
        await wait(now.pause * 1000);
        if (run.current !== mine) return;
      }
    },
    [deck.language, interfaceLanguage, serverVoices, reach],
  );

  const grade = useCallback(
    (name: GradeName) => {
      if (!card) return;
      const at = Date.now();
      setGraded((count) => count + 1);
      // Stored before the next card plays; sent from the queue the offline review sends, online or later.
      void storeGrade(deck.owner, { termId: card.id, version: card.version, grade: name, at })
        .then(refreshPending)
        .then(() => syncGrades(deck.owner))
        .catch(() => undefined)
        .then(refreshPending);
      if (phase === "paused" || phase === "ready") {
        run.current++;
        silence();
        setIndex(index + 1);
        setPhase(index + 1 >= batches.current.cards.length && !batches.current.next ? "done" : "paused");
      } else void play(index + 1);
    },
    [card, deck, index, phase, play, refreshPending],
  );

  const repeat = useCallback(() => void play(index), [play, index]);
  const toggle = useCallback(() => (phase === "playing" ? stop() : void play(index)), [phase, stop, play, index]);

  useMediaSession({
    card,
    playing: phase === "playing",
    album: t("common:titles.player"),
    onPlay: () => void play(index),
    onPause: () => stop(),
    onNext: () => grade(latest.current.settings.nextGrade),
    onPrevious: repeat,
  });

  useEffect(() => {
    void Promise.resolve().then(refreshPending);
    // Grades given offline leave as soon as the network is back (and whoever sent them, the count follows).
    const online = () => {
      void syncGrades(deck.owner)
        .catch(() => undefined)
        .then(refreshPending);
      setMoreFailed(false);
    };
    const synced = () => void refreshPending();
    window.addEventListener("online", online);
    window.addEventListener(SYNCED_EVENT, synced);
    return () => {
      window.removeEventListener("online", online);
      window.removeEventListener(SYNCED_EVENT, synced);
    };
  }, [refreshPending, deck.owner]);

  // Leaving the page ends the reading (a run still waiting finds itself outdated).
  useEffect(() => {
    const runs = run;
    return () => {
      runs.current++;
      silence();
    };
  }, []);

  useEffect(() => {
    if (sleepAt === null) return;
    const timer = setTimeout(() => {
      setSleepAt(null);
      stop();
    }, sleepAt - Date.now());
    return () => clearTimeout(timer);
  }, [sleepAt, stop]);

  if (!voices.supported) return <p className="notice">{t("player.noSpeech")}</p>;
  const missing = voices.list.length > 0 && !voiceFor(voices.list, deck.language) && !serverVoices[deck.language];
  return (
    <div className="player-panel">
      {missing ? (
        <p className="notice" role="alert">
          {t("player.noVoice", { language: languageName })}
        </p>
      ) : null}
      {card ? (
        <div className="player-card" aria-live="off">
          <p className="hint">{t("player.position", { at: index + 1, count: Math.max(deck.total, cards.length) })}</p>
          <p className="player-term" lang={deck.language}>
            {card.text}
          </p>
          {phase === "ready" ? null : (
            <>
              <p>{card.meaning}</p>
              {card.example ? <p lang={deck.language}>{card.example.sentence}</p> : null}
            </>
          )}
        </div>
      ) : nextBatch ? (
        <p className="hint">{moreFailed ? t("player.moreOffline") : t("player.loading")}</p>
      ) : (
        <p className="lead">{t("player.finished")}</p>
      )}
      {card ? (
        <>
          <p className="player-controls">
            <button type="button" className="button" onClick={toggle} aria-pressed={phase === "playing"}>
              {phase === "playing" ? t("player.pause") : t("player.play")}
            </button>{" "}
            <button type="button" className="button button-secondary" onClick={repeat}>
              {t("player.repeat")}
            </button>
          </p>
          <fieldset className="grades player-grades">
            <legend>{labels.legend}</legend>
            {GRADE_NAMES.map((name) => (
              <button
                key={name}
                type="button"
                className={"button grade-button player-grade" + (name === "again" ? " button-danger" : "")}
                onClick={() => grade(name)}
              >
                {labels.grades[name]}
              </button>
            ))}
          </fieldset>
        </>
      ) : null}
      <p className="hint" role="status">
        {pending ? t("common:offline.waiting", { count: pending }) : graded > 0 ? t("player.allSent") : ""}
      </p>
      <PlayerSettingsForm
        grades={labels.grades}
        settings={settings}
        change={changeSettings}
        sleepAt={sleepAt}
        setSleepAt={setSleepAt}
      />
    </div>
  );
}
