import { useEffect, useState } from "react";

/** A voice of the browser for a language, once the browser has listed its voices; null without one (or on the server). */
export function useVoice(language: string): SpeechSynthesisVoice | null {
  const [voice, setVoice] = useState<SpeechSynthesisVoice | null>(null);
  useEffect(() => {
    if (typeof speechSynthesis === "undefined") return;
    const pick = () =>
      setVoice(speechSynthesis.getVoices().find((v) => v.lang.toLowerCase().split(/[-_]/)[0] === language) ?? null);
    pick();
    speechSynthesis.addEventListener("voiceschanged", pick);
    return () => speechSynthesis.removeEventListener("voiceschanged", pick);
  }, [language]);
  return voice;
}

/** Reads a text aloud in its language; not rendered without JavaScript or when the browser has no voice for it. */
export function ListenButton({
  text,
  voice,
  label,
}: {
  text: string;
  voice: SpeechSynthesisVoice | null;
  label: string;
}) {
  if (!voice) return null;
  const speak = () => {
    speechSynthesis.cancel();
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.voice = voice;
    utterance.lang = voice.lang;
    speechSynthesis.speak(utterance);
  };
  return (
    <button type="button" className="button button-small button-secondary" onClick={speak}>
      {label}
    </button>
  );
}
