import { useTranslation } from "../i18n/use-translation";

/**
 * A term's sound (ADR 126) as the browser's own player: a play button with or without JavaScript. `autoPlay` when the
 * learner asked for it (the review's answer side); nothing is fetched before it plays.
 */
export function TermSound({ src, autoPlay = false }: { src: string | null; autoPlay?: boolean }) {
  const { t } = useTranslation("learning");
  if (!src) return null;
  return (
    <p className="term-sound">
      {/* oxlint-disable-next-line jsx-a11y/media-has-caption -- the sound says the term the page shows as text */}
      <audio controls preload="none" src={src} autoPlay={autoPlay} aria-label={t("sound.label")} />
    </p>
  );
}
