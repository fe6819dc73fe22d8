import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { startI18n } from "./i18n/i18n.client";
import { watchChunkLoading } from "./http/chunk-errors.client";
import { retryRefusedData } from "./http/overload-retry.client";

watchChunkLoading();
retryRefusedData();

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
});
