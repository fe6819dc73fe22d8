import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { startI18n, translationLoaders } from "./i18n/i18n.client";
import { watchChunkLoading } from "./http/chunk-errors.client";
import { retryRefusedData } from "./http/overload-retry.client";
import { deferRouteDiscoveryWhileOffline } from "./http/route-discovery.client";
import { atFirstMove } from "./ui/first-move";

watchChunkLoading();
retryRefusedData();
deferRouteDiscoveryWhileOffline();

startI18n().then((i18n) => {
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18n}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
  // The next page's translations are fetched through the list of every file, which the first page did not need.
  atFirstMove(() => void translationLoaders().catch(() => {}));
});
