import { lazy, Suspense } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useTranslation } from "../i18n/use-translation";
import type { ServerVoices } from "../player/speech";

/** Listen's own chunk: loaded by the reader only, once it runs in the browser. */
const ListenPage = lazy(() => import("./listen-page.client"));

/** The reader's "Listen" control; without JavaScript, a line saying that it needs JavaScript. */
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
  if (!hydrated) return <p className="hint listen">{t("listen.needsJavaScript")}</p>;
  return (
    <Suspense fallback={null}>
      <ListenPage language={language} languageName={languageName} serverVoices={serverVoices} rate={rate} />
    </Suspense>
  );
}
