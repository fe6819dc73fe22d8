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

/** Plays a sound and resolves when it ended or was stopped (true), or could not play (false). */
export function playSound(src: string, rate: number): Promise<boolean> {
  return new Promise((resolve) => {
    playing?.pause();
    const audio = new Audio(src);
    playing = audio;
    audio.playbackRate = rate;
    const done = (played: boolean) => () => {
      if (playing === audio) playing = null;
      resolve(played);
    };
    audio.addEventListener("ended", done(true), { once: true });
    audio.addEventListener("error", done(false), { once: true });
    audio.addEventListener("pause", done(true), { once: true });
    audio.play().catch(done(false));
  });
}

/** The server's voices (ADR 140): language → the provider's voice; empty without a provider. */
export type ServerVoices = Record<string, string>;

/** Texts longer than this are read by the browser's voice (the server refuses them). */
const SERVER_TEXT_MAX = 400;

/** The address of a text read by the server's voice for its language; null without one. */
export function serverSpeechUrl(voices: ServerVoices, language: string, text: string): string | null {
  const lang = baseOf(language) ?? language;
  const voice = voices[lang];
  if (!voice || text.length === 0 || text.length > SERVER_TEXT_MAX) return null;
  return `/account/speech?${new URLSearchParams({ lang, voice, text })}`;
}

/**
 * Says a text with the server's voice for its language when there is one, else (or when its audio cannot play) with
 * the browser's.
 */
export async function say(
  text: string,
  language: string,
  voice: SpeechSynthesisVoice | null,
  rate: number,
  server: ServerVoices,
): Promise<void> {
  const url = serverSpeechUrl(server, language, text);
  if (url && (await playSound(url, rate))) return;
  return speak(text, language, voice, rate);
}

/** Stops the sound playing, if any. */
export function stopSound() {
  playing?.pause();
}

/** Stops whatever is being said or played: the device's voice and a sound (a deck's or the server's). */
export function silence() {
  if (typeof speechSynthesis !== "undefined") speechSynthesis.cancel();
  stopSound();
}
