import { lazy, Suspense } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useBasicMode } from "../http/basic-mode";
import { useTranslation } from "../i18n/use-translation";
import type { ServerVoices } from "../player/speech";

/** Listen's own chunk: loaded by the reader only, once it runs in the browser. */
const ListenPage = lazy(() => import("./listen-page.client"));

/**
 * The reader's "Listen" control. Until its chunk has loaded, a placeholder of the same size holds its place (a disabled
 * "Listen"), so the text below does not move when it arrives. A browser without scripting shows a line saying that
 * listening needs JavaScript instead (CSS `scripting`), as does basic HTML mode, whose pages carry no script.
 */
export function ListenControl({
  language,
  languageName,
  serverVoices,
  rate,
}: {
  language: string;
  languageName: string;
  serverVoices: ServerVoices;
  /** The speed it reads at (the player's setting). */
  rate: number;
}) {
  const { t } = useTranslation("reading");
  const hydrated = useHydrated();
  const basic = useBasicMode();
  if (basic) return <p className="hint listen">{t("listen.needsJavaScript")}</p>;
  const waiting = (
    <div className="listen">
      <p className="inline-form listen-scripted">
        <button type="button" className="button button-small button-secondary" disabled>
          {t("listen.start")}
        </button>
      </p>
      <p className="hint listen-unscripted">{t("listen.needsJavaScript")}</p>
      <p className="hint listen-position listen-scripted" />
    </div>
  );
  if (!hydrated) return waiting;
  return (
    <Suspense fallback={waiting}>
      <ListenPage language={language} languageName={languageName} serverVoices={serverVoices} rate={rate} />
    </Suspense>
  );
}
