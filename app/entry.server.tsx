import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import {
  isRouteErrorResponse,
  ServerRouter,
  type EntryContext,
  type HandleErrorFunction,
  type RouterContextProvider,
} from "react-router";
import { env } from "./config/env.server";
import { BasicModeContext } from "./http/basic-mode";
import { basicModeContext } from "./http/basic-mode.server";
import { contentSecurityPolicy, NonceContext } from "./http/csp";
import { log } from "./server/log.server";
import { isBot } from "./http/bots.server";
import { cspNonce } from "./http/nonce.server";
import { getInstance } from "./i18n/i18n.server";
import { userContext } from "./auth/session.server";
import { STORED_COPY_HEADER } from "./toasts/toast";
import { DocumentTranslationsContext } from "./i18n/document-translations";
import { translationsByFile, translationsInside } from "./i18n/document-translations.server";
import { declareStaleness } from "./edge/staleness.server";
import { translationFiles } from "./i18n/translation-files.server";
import { startRecordingNamespaces, usedNamespaces, usedTranslations } from "./i18n/used-namespaces.server";
import { StylesheetContext } from "./ui/document-stylesheet";
import { stylesheetInside, stylesheetLinked, stylesheetSubset, withStylesheetSubset } from "./ui/stylesheet.server";

/** The one object server.ts takes from the build: see app-server.server.ts. */
export { appServer } from "./app-server.server";

export const streamTimeout = 5_000;

// Loading the server build is the server's start (the build itself has no notes): say what the configuration chose.
for (const note of env.startupNotes) log[note.level](note.message, note.fields);

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // What the matched routes declare about this page's staleness, for the caches that keep it (app/edge/).
  declareStaleness(loadContext, routerContext);
  const userAgent = request.headers.get("user-agent");
  const bot = isBot(userAgent);
  // The database is away (see http/unavailable.server.ts): clients and crawlers may come back shortly.
  if (responseStatusCode === 503) responseHeaders.set("Retry-After", "10");

  // Bots get the right status with a minimal body instead of the error page; the error is only logged. The 503 page is
  // the exception: it is temporary (no crawler indexes it, Retry-After says when to come back) and scripts and command-
  // line clients, which count as bots, should read why their request was not done.
  if (bot && responseStatusCode >= 400 && responseStatusCode !== 503) {
    log.warn("error page withheld from bot", {
      status: responseStatusCode,
      path: new URL(request.url).pathname,
      userAgent,
    });
    responseHeaders.set("Content-Type", "text/plain; charset=utf-8");
    return new Response(`${responseStatusCode}\n`, { status: responseStatusCode, headers: responseHeaders });
  }
  if (request.method.toUpperCase() === "HEAD") {
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    responseHeaders.set(
      "Content-Security-Policy",
      contentSecurityPolicy(cspNonce(), env.analyticsHosts, env.billing.redirectOrigins),
    );
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  // Everything that can throw is resolved before the abort timer is armed: a throw after it would kill the process.
  const i18n = getInstance(loadContext);
  const nonce = cspNonce();
  const basic = loadContext.get(basicModeContext);
  startRecordingNamespaces(i18n);
  // A signed-in learner's browser keeps the stylesheet and translation files: their documents link them instead of
  // carrying them (~64 KB less a page to draw, compress and read). A first visit gets everything inside, for the first
  // paint on a slow link, and so does the offline review's stored copy of a page, which must stand on its own. Without
  // a build (development) the files are not known: everything inside.
  const storedCopy = request.headers.has(STORED_COPY_HEADER);
  const linked = loadContext.get(userContext) !== null && !storedCopy && translationFiles(i18n.language, []) !== null;
  // A first visit's document holds the rules it uses; the browser loads the whole file later (decision 084).
  const stylesheet = linked ? stylesheetLinked : storedCopy ? stylesheetInside : stylesheetSubset;
  const translations = () => {
    const namespaces = usedNamespaces(i18n);
    const files = linked ? translationFiles(i18n.language, namespaces) : null;
    return files ? translationsByFile(namespaces, files) : translationsInside(usedTranslations(i18n));
  };
  const app = (
    <BasicModeContext.Provider value={basic}>
      <NonceContext.Provider value={nonce}>
        <StylesheetContext.Provider value={stylesheet}>
          <DocumentTranslationsContext.Provider value={translations}>
            <I18nextProvider i18n={i18n}>
              <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
            </I18nextProvider>
          </DocumentTranslationsContext.Provider>
        </StylesheetContext.Provider>
      </NonceContext.Provider>
    </BasicModeContext.Provider>
  );

  // No page suspends (every loader resolves before rendering), so nothing would arrive later in a stream: the document
  // is rendered whole and answered as one buffer, which the compression middleware then encodes in one go instead of
  // chunk by chunk through three streams (a measurable share of every dynamic page).
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined;
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      onAllReady() {
        shellRendered = true;
        const chunks: Buffer[] = [];
        const body = new Writable({
          write(chunk: Buffer, _encoding, callback) {
            chunks.push(chunk);
            callback();
          },
          final(callback) {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            responseHeaders.set(
              "Content-Security-Policy",
              contentSecurityPolicy(nonce, env.analyticsHosts, env.billing.redirectOrigins),
            );
            const html = Buffer.concat(chunks);
            const page = stylesheet === stylesheetSubset ? Buffer.from(withStylesheetSubset(html.toString())) : html;
            resolve(new Response(page, { headers: responseHeaders, status: responseStatusCode }));
            callback();
          },
        });
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(timeoutId);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) log.error("streaming render failed", { error });
      },
    });
    timeoutId = setTimeout(() => abort(), streamTimeout + 1000);
  });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  // A 4xx (no such page, no action for a POST) is the visitor's mistake, answered with the error page: not a failure.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const path = new URL(request.url).pathname;
  // React Router's own refusal of a cross-site action is the defence working, not a failure of ours.
  if (error instanceof Error && error.message.includes("Aborting the action")) {
    log.warn("cross-site action refused", { method: request.method, path, origin: request.headers.get("Origin") });
    return;
  }
  log.error("request failed", { method: request.method, path, error });
};
