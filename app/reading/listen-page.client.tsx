import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "../i18n/use-translation";
import { say, silence, useVoices, voiceFor, type ServerVoices } from "../player/speech";
import { highlightSentence, pageSentences, type PageSentence } from "./sentences";

type Phase = "idle" | "playing" | "paused";

/**
 * The reader's "Listen" (ADR 141): reads the page sentence by sentence in the text's language with the voices the player
 * uses, the sentence being read highlighted; pause keeps the place, resume reads that sentence again and goes on.
 */
export default function ListenPage({
  language,
  languageName,
  serverVoices,
  rate,
}: {
  language: string;
  languageName: string;
  serverVoices: ServerVoices;
  rate: number;
}) {
  const { t } = useTranslation("reading");
  const voices = useVoices();
  const [phase, setPhase] = useState<Phase>("idle");
  const [at, setAt] = useState(0);
  const [count, setCount] = useState(0);
  const run = useRef(0);
  const sentences = useRef<PageSentence[]>([]);
  const voice = voiceFor(voices.list, language);

  const read = useCallback(
    async (from: number) => {
      const mine = ++run.current;
      silence();
      if (from === 0 || sentences.current.length === 0) {
        const root = document.querySelector<HTMLElement>(".reader-text");
        sentences.current = root ? pageSentences(root, language) : [];
        setCount(sentences.current.length);
      }
      setPhase("playing");
      for (let index = from; index < sentences.current.length; index++) {
        const sentence = sentences.current[index]!;
        setAt(index);
        highlightSentence(sentence);
        await say(sentence.text, language, voice, rate, serverVoices);
        if (run.current !== mine) return;
      }
      highlightSentence(null);
      setAt(0);
      setPhase("idle");
    },
    [language, voice, rate, serverVoices],
  );

  const pause = useCallback(() => {
    run.current++;
    silence();
    setPhase("paused");
  }, []);

  const stop = useCallback(() => {
    run.current++;
    silence();
    highlightSentence(null);
    setAt(0);
    setPhase("idle");
  }, []);

  // Leaving the page (or another page of the text) ends the reading.
  useEffect(() => {
    const runs = run;
    return () => {
      runs.current++;
      silence();
      highlightSentence(null);
    };
  }, []);

  if (!voices.supported) return <p className="hint">{t("listen.noSpeech")}</p>;
  const missing = voices.list.length > 0 && !voice && !serverVoices[language];
  return (
    <div className="listen">
      <p className="inline-form">
        {phase === "playing" ? (
          <button type="button" className="button button-small button-secondary" onClick={pause}>
            {t("listen.pause")}
          </button>
        ) : (
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => void read(phase === "paused" ? at : 0)}
          >
            {phase === "paused" ? t("listen.resume") : t("listen.start")}
          </button>
        )}
        {phase === "idle" ? null : (
          <button type="button" className="button button-small button-secondary" onClick={stop}>
            {t("listen.stop")}
          </button>
        )}
      </p>
      {missing ? <p className="hint">{t("listen.noVoice", { language: languageName })}</p> : null}
      {/* A live region of its own, not a status: the page's status is its messages (toasts). */}
      <p className="hint listen-position" aria-live="polite">
        {phase === "idle" ? "" : t("listen.position", { at: at + 1, count })}
      </p>
    </div>
  );
}
