import { useEffect } from "react";
import {
  Links,
  Meta,
  Outlet,
  redirectDocument,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRevalidator,
  useRouteLoaderData,
  type MiddlewareFunction,
} from "react-router";
import { recoveringByNavigation } from "./http/chunk-errors.client";
import type { Route } from "./+types/root";
import { browserAnalytics } from "./analytics/analytics.server";
import { PageViews } from "./analytics/page-views";
import { holdsSignInToken } from "./analytics/token-pages";
import { guardMiddleware } from "./auth/guard.server";
import { honeypotInputProps } from "./auth/honeypot.server";
import { sessionMiddleware, userContext } from "./auth/session.server";
import { env } from "./config/env.server";
import { studyLanguageMiddleware } from "./learning/preferences.server";
import { originCheckMiddleware } from "./http/origin-check.server";
import { bodyLimitMiddleware } from "./http/request-body.server";
import { useNonce } from "./http/csp";
import { useBasicMode } from "./http/basic-mode";
import { basicModeMiddleware } from "./http/basic-mode.server";
import { routeRulesMiddleware } from "./http/route-rules.server";
import { learnerPagesMiddleware } from "./edge/learner-pages.server";
import { documentCompressionMiddleware } from "./edge/document-compression.server";
import { unavailableMiddleware } from "./http/unavailable.server";
import { withoutTrackingParams } from "./http/seo";
import { i18nextMiddleware, requestLocale } from "./i18n/i18n.server";
import { i18next } from "./i18n/i18n.client";
import { DocumentTranslations } from "./i18n/document-translations";
import { CLIENT_NAMESPACES, localeDirection, splitLocale } from "./i18n/locales";
import { rootRedirectMiddleware } from "./i18n/root-redirect.server";
import { ErrorPage } from "./ui/error-page";
import { DefaultLayout } from "./ui/layouts";
import { DocumentStylesheet, wholeStylesheet } from "./ui/document-stylesheet";
import { LanguageLinks } from "./ui/seo";
import { takeToasts, toastMiddleware } from "./toasts/toast.server";
import { colorScheme } from "./theme/theme";
import { readTheme } from "./theme/theme.server";
import type { StalenessHandle } from "./edge/staleness";

// A document is compressed as the last step, in one go (app/edge/document-compression.server.ts). The learner-page cache
// wraps everything else, so it keeps a page with every header the other middlewares give it. The i18n middleware runs
// next: everything after it, error pages included, can speak the visitor's language.
export const middleware = [
  documentCompressionMiddleware,
  learnerPagesMiddleware,
  i18nextMiddleware,
  unavailableMiddleware,
  bodyLimitMiddleware,
  basicModeMiddleware,
  originCheckMiddleware,
  rootRedirectMiddleware,
  routeRulesMiddleware,
  toastMiddleware,
  sessionMiddleware,
  guardMiddleware(),
  studyLanguageMiddleware,
];

/**
 * In the browser, the next page's translations and styles are there before it renders: the first page brought only
 * its own namespaces and rules inside the document, so the other namespaces load alongside the next page's data, and
 * the whole stylesheet (usually loaded at the learner's first move already) before it. If a language's translations or
 * the stylesheet cannot be loaded (a chunk from an older deploy), the destination is loaded as a whole document
 * instead.
 */
const switchLanguage: MiddlewareFunction = async ({ request }, next) => {
  const url = new URL(request.url);
  const { locale } = splitLocale(url.pathname);
  // Resolves at once when everything is there; it never rejects (a failure shows up as a missing bundle below).
  const allNamespaces = i18next.loadNamespaces(CLIENT_NAMESPACES);
  // Alongside the translations, not before them; like them it resolves to whether it loaded.
  const styles = wholeStylesheet();
  let translated = true;
  if (i18next.language !== locale) {
    await i18next.loadLanguages(locale);
    translated = i18next.hasResourceBundle(locale, "common");
  }
  if (!translated || !(await styles)) {
    recoveringByNavigation();
    throw redirectDocument(url.pathname + url.search + url.hash);
  }
  await next();
  await allNamespaces;
  if (i18next.language !== locale) await i18next.changeLanguage(locale);
};
export const clientMiddleware = [switchLanguage];

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon-32.png", type: "image/png", sizes: "32x32" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "manifest", href: "/site.webmanifest" },
];

/** The document shows the signed-in learner (their name, plan) beside what the request itself says. */
export const handle: StalenessHandle = { staleness: { dependsOn: ["learner"] } };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  // A page holding a usable sign-in token gets no third-party script: autocapture or any script could read the token.
  const analyticsAllowed = env.analyticsEnabled && !holdsSignInToken(new URL(request.url).pathname);
  return {
    locale: requestLocale(context),
    theme: await readTheme(request),
    origin: env.APP_URL,
    year: new Date().getFullYear(),
    user: user ? { email: user.email } : null,
    toasts: takeToasts(context),
    honeypot: await honeypotInputProps(),
    analytics: analyticsAllowed ? browserAnalytics() : null,
    webAnalyticsSrc: analyticsAllowed ? (env.WEB_ANALYTICS_SRC ?? null) : null,
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const basic = useBasicMode();
  const root = useRouteLoaderData<RootData>("root");
  const { locale } = splitLocale(useLocation().pathname);
  // The server applies the chosen theme to the document itself, so the first paint is already right.
  const theme = root?.theme ?? "system";
  return (
    <html lang={locale} dir={localeDirection(locale)} data-theme={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={colorScheme(theme)} />
        <DocumentStylesheet />
        <Meta />
        {/* Links need no nonce (the policy checks scripts by nonce, not styles or icons). Without an explicit one they
            take the render's, which the browser's render has not, or not visibly: a hydration mismatch. */}
        <Links nonce="" />
        <LanguageLinks />
      </head>
      <body>
        {children}
        {/* Basic HTML: no script and no module preload at all; every page and form works without them. */}
        {basic ? null : (
          <>
            <DocumentTranslations />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
            {root?.webAnalyticsSrc ? (
              <script nonce={nonce} dangerouslySetInnerHTML={{ __html: scriptLoader(root.webAnalyticsSrc) }} />
            ) : null}
          </>
        )}
      </body>
    </html>
  );
}

/**
 * Inserts an external script from an inline one: a page shared by many visitors allows inline scripts by hash, and
 * 'strict-dynamic' then trusts what they insert (a parser-inserted `<script src>` would need a nonce).
 */
function scriptLoader(src: string): string {
  return `(function(s){s.async=true;s.src=${JSON.stringify(src).replaceAll("<", "\\u003c")};document.body.appendChild(s)})(document.createElement("script"))`;
}

/** Campaign parameters are read by analytics on load, then removed from the address bar without a reload. */
function useTrackingParamsCleanup() {
  const { search } = useLocation();
  useEffect(() => {
    const cleaned = withoutTrackingParams(search);
    if (cleaned === null) return;
    window.history.replaceState(window.history.state, "", window.location.pathname + cleaned + window.location.hash);
  }, [search]);
}

/**
 * A signed-in learner's device keeps today's review for offline use (ADR 065): its code loads after hydration. A page
 * with no signed-in learner clears what a device still holds (ADR 096).
 */
function useOfflineReview(signedIn: boolean, locale: RootData["locale"]) {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (!signedIn) return;
    // Grades sent in the background (ADR 117): the header's count, where one is shown, follows.
    const synced = (event: Event) => {
      const { sent } = (event as CustomEvent<{ sent: number }>).detail;
      if (sent > 0 && document.querySelector("header .due-count")) void revalidate();
    };
    // offline-store.client.ts's SYNCED_EVENT, written out so that no visitor's page loads that module.
    window.addEventListener("polyglot:offline-synced", synced);
    return () => window.removeEventListener("polyglot:offline-synced", synced);
  }, [signedIn, revalidate]);
  useEffect(() => {
    if (!signedIn) {
      void clearLeftDevice().catch(() => {});
      return;
    }
    let stop: (() => void) | undefined;
    let left = false;
    void import("./learning/offline-boot.client")
      .then(({ bootOfflineReview }) => {
        if (!left) stop = bootOfflineReview(locale);
      })
      .catch(() => {});
    return () => {
      left = true;
      stop?.();
    };
  }, [signedIn, locale]);
}

/**
 * The offline review a learner's device stored, left behind when their session ended without this browser's sign-out
 * (signed out everywhere from another device, expired): the server's Clear-Site-Data removes it where the browser
 * honours it; this removes it elsewhere. Its code loads only when there is something to clear.
 */
async function clearLeftDevice(): Promise<void> {
  const worker = await navigator.serviceWorker?.getRegistration();
  // offline-store.client.ts's DATABASE, written out so that no visitor's page loads that module.
  if (worker || (await indexedDB.databases?.())?.some((database) => database.name === "polyglot-offline"))
    await (await import("./learning/offline-store.client")).clearDevice(false, worker);
}

export default function App({ loaderData }: Route.ComponentProps) {
  useTrackingParamsCleanup();
  useOfflineReview(loaderData.user !== null, loaderData.locale);
  return (
    <>
      <Outlet />
      <PageViews config={loaderData.analytics} />
    </>
  );
}

export function ErrorBoundary() {
  return (
    <DefaultLayout>
      <ErrorPage />
    </DefaultLayout>
  );
}
