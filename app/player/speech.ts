import { useEffect, useState } from "react";

/** The browser's voices (ADR 109): none on the server, in a browser without speech synthesis, or before it lists them. */
export type Voices = { supported: boolean; list: SpeechSynthesisVoice[] };

const baseOf = (lang: string) => lang.toLowerCase().split(/[-_]/)[0];

/** The voices the browser lists, updated when it lists more (some browsers list them only after a first ask). */
export function useVoices(): Voices {
  // The player renders in the browser only: the voices can be read at once.
  const [voices, setVoices] = useState<Voices>(readVoices);
  useEffect(() => {
    if (!readVoices().supported) return;
    const read = () => setVoices(readVoices());
    speechSynthesis.addEventListener("voiceschanged", read);
    return () => speechSynthesis.removeEventListener("voiceschanged", read);
  }, []);
  return voices;
}

function readVoices(): Voices {
  if (typeof speechSynthesis === "undefined" || typeof SpeechSynthesisUtterance === "undefined")
    return { supported: false, list: [] };
  return { supported: true, list: speechSynthesis.getVoices() };
}

/** A voice for a language: the browser's default voice for it when it marks one, else the first; null without one. */
export function voiceFor(voices: readonly SpeechSynthesisVoice[], language: string): SpeechSynthesisVoice | null {
  const base = baseOf(language);
  const matching = voices.filter((voice) => baseOf(voice.lang) === base);
  return matching.find((voice) => voice.default) ?? matching[0] ?? null;
}

/**
 * Says a text and resolves when it was said, or cancelled (`speechSynthesis.cancel()` ends it with an error). Without a
 * voice for its language the browser picks one from `lang`.
 */
export function speak(text: string, language: string, voice: SpeechSynthesisVoice | null, rate: number): Promise<void> {
  return new Promise((resolve) => {
    const utterance = new SpeechSynthesisUtterance(text);
    if (voice) utterance.voice = voice;
    utterance.lang = voice?.lang ?? language;
    utterance.rate = rate;
    utterance.onend = () => resolve();
    utterance.onerror = () => resolve();
    speechSynthesis.speak(utterance);
  });
}

/** Resolves after `ms`: the pause between the term and its meaning. */
export const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The sound playing now (one at a time), so that stopping the player stops it too. */
let playing: HTMLAudioElement | null = null;

/** Plays a term's sound and resolves when it ended, failed or was stopped. */
export function playSound(src: string, rate: number): Promise<void> {
  return new Promise((resolve) => {
    playing?.pause();
    const audio = new Audio(src);
    playing = audio;
    audio.playbackRate = rate;
    const done = () => {
      if (playing === audio) playing = null;
      resolve();
    };
    audio.addEventListener("ended", done, { once: true });
    audio.addEventListener("error", done, { once: true });
    audio.addEventListener("pause", done, { once: true });
    audio.play().catch(done);
  });
}

/** Stops the sound playing, if any. */
export function stopSound() {
  playing?.pause();
}
