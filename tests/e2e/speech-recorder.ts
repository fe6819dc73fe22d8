/**
 * The browser's speech synthesis replaced by a recorder (the player, the reader's Listen): an English and a German
 * voice. Each utterance ends on the next task, or, once the page sets `speechHeld`, when the test calls
 * `finishSpeech()`; `cancel()` ends what is being said with an error, as browsers do.
 */
import type { Page } from "@playwright/test";

export type Spoken = { text: string; lang: string; voice: string | null; rate: number };

type RecorderWindow = {
  spoken: Spoken[];
  speechHeld: boolean;
  finishSpeech: () => void;
  mediaHandlers: Record<string, unknown>;
};

/** Runs in the page (addInitScript): every name it uses is its own. */
export function recordSpeech(): void {
  const voices = [
    { name: "Recorder English", lang: "en-US", default: true, localService: true, voiceURI: "rec-en" },
    { name: "Recorder German", lang: "de-DE", default: false, localService: true, voiceURI: "rec-de" },
  ];
  const recorder = window as unknown as RecorderWindow;
  const spoken: Spoken[] = [];
  recorder.spoken = spoken;
  recorder.speechHeld = false;
  class Utterance extends EventTarget {
    lang = "";
    voice: { lang: string } | null = null;
    rate = 1;
    onstart: ((event: Event) => void) | null = null;
    onend: ((event: Event) => void) | null = null;
    onerror: ((event: Event) => void) | null = null;
    text: string;
    constructor(text: string) {
      super();
      this.text = text;
    }
  }
  let held: Utterance[] = [];
  recorder.finishSpeech = () => {
    const done = held;
    held = [];
    for (const utterance of done) utterance.onend?.(new Event("end"));
  };
  const synthesis = {
    getVoices: () => voices,
    speak(utterance: Utterance) {
      spoken.push({
        text: utterance.text,
        lang: utterance.lang,
        voice: utterance.voice?.lang ?? null,
        rate: utterance.rate,
      });
      utterance.onstart?.(new Event("start"));
      if (recorder.speechHeld) held.push(utterance);
      else setTimeout(() => utterance.onend?.(new Event("end")), 0);
    },
    cancel() {
      const cancelled = held;
      held = [];
      for (const utterance of cancelled) utterance.onerror?.(new Event("error"));
    },
    pause() {},
    resume() {},
    addEventListener() {},
    removeEventListener() {},
  };
  Object.defineProperty(window, "speechSynthesis", { value: synthesis, configurable: true });
  Object.defineProperty(window, "SpeechSynthesisUtterance", { value: Utterance, configurable: true });
  // The handlers the page gives the Media Session, to press "next" and "previous" as a headset would.
  const handlers: Record<string, unknown> = {};
  recorder.mediaHandlers = handlers;
  const set = navigator.mediaSession.setActionHandler.bind(navigator.mediaSession);
  navigator.mediaSession.setActionHandler = (action, handler) => {
    handlers[action] = handler;
    set(action, handler);
  };
}

/** What the page said so far, in order. */
export const spoken = (page: Page) => page.evaluate(() => (window as unknown as RecorderWindow).spoken);

/** From now on each utterance lasts until `finishSpeech` (the page is reading it meanwhile). */
export const holdSpeech = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as RecorderWindow).speechHeld = true;
  });

/** Ends what is being said, as the voice reaching its end would. */
export const finishSpeech = (page: Page) => page.evaluate(() => (window as unknown as RecorderWindow).finishSpeech());
