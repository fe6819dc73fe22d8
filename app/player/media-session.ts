import { useEffect, useRef } from "react";
import type { PlayerCard } from "./player.server";

type Session = {
  card: PlayerCard | null;
  playing: boolean;
  album: string;
  onPlay: () => void;
  onPause: () => void;
  /** A grade: the one the learner chose for "next". */
  onNext: () => void;
  /** The card again. */
  onPrevious: () => void;
};

const ACTIONS = ["play", "pause", "nexttrack", "previoustrack"] as const;

/**
 * The Media Session (ADR 109): the card on the lock screen and in the system's media controls, whose play, pause,
 * next and previous (a headset's buttons too) drive the player. Nothing in a browser without it.
 */
export function useMediaSession(session: Session): void {
  const latest = useRef(session);
  useEffect(() => {
    latest.current = session;
  });
  const { card, playing, album } = session;

  useEffect(() => {
    if (!("mediaSession" in navigator)) return;
    const handlers: Record<(typeof ACTIONS)[number], () => void> = {
      play: () => latest.current.onPlay(),
      pause: () => latest.current.onPause(),
      nexttrack: () => latest.current.onNext(),
      previoustrack: () => latest.current.onPrevious(),
    };
    for (const action of ACTIONS) navigator.mediaSession.setActionHandler(action, handlers[action]);
    return () => {
      for (const action of ACTIONS) navigator.mediaSession.setActionHandler(action, null);
      navigator.mediaSession.metadata = null;
    };
  }, []);

  useEffect(() => {
    if (!("mediaSession" in navigator)) return;
    navigator.mediaSession.metadata = card
      ? new MediaMetadata({ title: card.text, artist: card.meaning, album })
      : null;
    navigator.mediaSession.playbackState = playing ? "playing" : "paused";
  }, [card, playing, album]);
}
