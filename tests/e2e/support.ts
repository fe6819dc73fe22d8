/**
 * Shared helpers for the end-to-end suite: a `test` whose pages fail on console errors, a `learnerTest` whose pages are
 * signed in, translations read from the locale files, the list of routes with what each should show, and checks for
 * the SEO links in a page's <head>.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  test as base,
  expect,
  type Browser,
  type BrowserContext,
  type Page,
  type PlaywrightWorkerArgs,
} from "@playwright/test";
import { forwardedFor, linkIn, mailFor, uniqueAddress } from "./mail";

export { expect };

export const LOCALES = ["en", "de", "es", "fr", "tr", "uk", "zh"] as const;
export type Locale = (typeof LOCALES)[number];
/** The locales every route is visited in. */
export const MATRIX_LOCALES: Locale[] = ["en", "de", "uk"];
export const PRODUCT_SUFFIX = " - POLYGLOT";
export const BOT_USER_AGENT = "Googlebot/2.1 (+http://www.google.com/bot.html)";

/** `/explore` in `de` is `/de/explore`; English has no prefix; the home page in `de` is `/de`. */
export function localePath(lng: Locale, pathname: string): string {
  if (lng === "en") return pathname;
  return pathname === "/" ? `/${lng}` : `/${lng}${pathname}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Translations, read from the same files the app bundles.

type Tree = { [key: string]: string | Tree };
const LOCALES_DIR = path.resolve(import.meta.dirname, "../../locales");
const cache = new Map<string, Tree>();

function namespace(lng: Locale, ns: string): Tree {
  const id = `${lng}/${ns}`;
  let tree = cache.get(id);
  if (!tree) {
    tree = JSON.parse(readFileSync(path.join(LOCALES_DIR, lng, `${ns}.json`), "utf8")) as Tree;
    cache.set(id, tree);
  }
  return tree;
}

/** `t("de", "titles.explore")` (namespace `common`) or `t("uk", "account:account.playerSoon")`; `{{name}}` is filled in, `{{count, number}}` in the locale's number format. */
export function t(lng: Locale, key: string, vars: Record<string, string | number> = {}): string {
  const [ns, name] = key.includes(":") ? (key.split(":", 2) as [string, string]) : ["common", key];
  let node: string | Tree | undefined = namespace(lng, ns);
  for (const part of name.split(".")) node = typeof node === "object" ? node[part] : undefined;
  if (typeof node !== "string") throw new Error(`missing translation ${lng}/${ns}.json: ${name}`);
  return node.replace(/\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g, (whole, variable: string, format?: string) => {
    const value = vars[variable];
    if (value === undefined) return whole;
    return format === "number" && typeof value === "number" ? new Intl.NumberFormat(lng).format(value) : String(value);
  });
}

export const pageTitle = (title: string) => `${title}${PRODUCT_SUFFIX}`;

/** A zone where the day is not about to end, so a 10-minute learning step falls within the learner's today. */
export const SAFE_ZONE = new Date().getUTCHours() < 22 ? "UTC" : "Asia/Tokyo";
export const notFoundTitle = (lng: Locale) => pageTitle(`404 ${t(lng, "errors.notFoundTitle")}`);

// ---------------------------------------------------------------------------------------------------------------
// Routes.

export type Layout = "default" | "account" | "play";
export type RouteSpec = {
  path: string;
  /** The <title> text before " - POLYGLOT". */
  title: (lng: Locale) => string;
  /** The visible main heading. */
  h1: (lng: Locale) => string;
  layout: Layout;
  /** The meta description. */
  description: (lng: Locale) => string;
  /** Served from a file rendered at build time. */
  prerendered?: boolean;
};

/** Public pages describe themselves; the account area carries the product's description. */
const DESCRIBED = [
  "form",
  "error",
  "confirm",
  "logout",
  "explore",
  "subscription",
  "postPurchase",
  "privacy",
  "termsOfUse",
  "crowdfunding",
];

const titled = (key: string, layout: Layout, prerendered = false): Omit<RouteSpec, "path"> => ({
  title: (lng) => t(lng, `titles.${key}`),
  h1: (lng) => t(lng, `titles.${key}`),
  layout,
  description: (lng) =>
    key === "home"
      ? t(lng, "landing:description")
      : t(lng, `descriptions.${DESCRIBED.includes(key) ? key : "default"}`),
  prerendered,
});

export const ROUTES: RouteSpec[] = [
  { path: "/", ...titled("home", "default") },
  { path: "/form", ...titled("form", "default") },
  { path: "/error", ...titled("error", "default") },
  { path: "/confirm", ...titled("confirm", "default") },
  { path: "/logout", ...titled("logout", "default") },
  { path: "/explore", ...titled("explore", "default") },
  {
    path: "/texts",
    title: (lng) => t(lng, "reading:titles.samples"),
    h1: (lng) => t(lng, "reading:titles.samples"),
    layout: "default",
    description: (lng) => t(lng, "reading:descriptions.samples"),
  },
  { path: "/subscription", ...titled("subscription", "default") },
  { path: "/subscription/post-purchase", ...titled("postPurchase", "default") },
  { path: "/company/privacy", ...titled("privacy", "default", true) },
  { path: "/company/terms-of-use", ...titled("termsOfUse", "default", true) },
  { path: "/crowdfunding-campaign", ...titled("crowdfunding", "default", true) },
  { path: "/crowdfunding-campaign/thank-you", ...titled("pledgeThanks", "default") },
  { path: "/account/home", ...titled("accountHome", "account") },
  { path: "/account/billing", ...titled("billing", "account") },
  { path: "/account/explore", ...titled("accountExplore", "account") },
  { path: "/account/explore/member", ...titled("member", "account") },
  { path: "/account/explore/public", ...titled("public", "account") },
  { path: "/account/settings", ...titled("settings", "account") },
  { path: "/account/profile", ...titled("profile", "account") },
  { path: "/account/profile/delete", ...titled("deleteAccount", "account") },
  { path: "/account/statistics", ...titled("statistics", "account") },
  { path: "/account/import", ...titled("import", "account") },
  { path: "/account/export", ...titled("export", "account") },
  {
    path: "/account/texts",
    title: (lng) => t(lng, "reading:titles.texts"),
    h1: (lng) => t(lng, "reading:titles.texts"),
    layout: "account",
    description: (lng) => t(lng, "descriptions.default"),
  },
  { path: "/account/player", ...titled("player", "play") },
  {
    path: "/account/player/player-soon",
    title: (lng) => t(lng, "titles.playerSoon"),
    h1: (lng) => t(lng, "account:account.playerSoon"),
    layout: "play",
    description: (lng) => t(lng, "descriptions.default"),
  },
];

export const PRERENDERED_PATHS = ROUTES.filter((route) => route.prerendered).map((route) => route.path);
/** The pages the sitemap lists (every locale of each). */
export const PUBLIC_PAGES = [
  "/",
  "/form",
  "/explore",
  "/texts",
  "/subscription",
  "/company/privacy",
  "/company/terms-of-use",
  "/crowdfunding-campaign",
];

// ---------------------------------------------------------------------------------------------------------------
// Page checks.

/** Opens the header's account menu (Profile, Settings, Billing, Sign out): a disclosure, with or without JavaScript. */
export async function openAccountMenu(page: Page, lng: Locale) {
  const menu = page.locator("header details.account-menu");
  await menu
    .locator("summary")
    .filter({ hasText: t(lng, "nav.myAccount") })
    .click();
  await expect(menu).toHaveAttribute("open", "");
}

/** With JavaScript on, waits until React has hydrated the document (its nodes carry React's internal keys). */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const main = document.querySelector("main");
    return !!main && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
  });
}

/**
 * Chooses a study language in Settings (where the form is), from the page open now: with JavaScript the change submits
 * the form, without it the form's button does. The form's answer leads back to the page the helper was called on (its
 * return path set to it), with the toast, as when the form was on My home. Resolves once the preference is saved.
 */
export async function chooseStudyLanguage(page: Page, javaScriptEnabled: boolean, option: string | { label: string }) {
  const from = new URL(page.url());
  const back = from.pathname + from.search;
  const lng = LOCALES.find((each) => each !== "en" && `${from.pathname}/`.startsWith(`/${each}/`)) ?? "en";
  await page.goto(localePath(lng, "/account/settings"));
  if (javaScriptEnabled) await waitForHydration(page);
  const button = page.getByRole("button", { name: t("en", "learning:studyLanguage.submit") });
  // With JavaScript the button goes once the form is hydrated: from then on a change submits it.
  if (javaScriptEnabled) await expect(button).toHaveCount(0);
  const field = page.getByLabel(t("en", "learning:studyLanguage.label"));
  const saved = page.waitForResponse(
    (response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/preferences"),
  );
  // The form's redirectTo is a controlled input: any render of the page between setting it and the submit would put
  // the page's own path back. So the target, the choice and (with JavaScript) the change that submits the form happen
  // in one task, with no render between them.
  await field.evaluate(
    (select: HTMLSelectElement, { to, choice, submit }) => {
      const input = select.form!.querySelector<HTMLInputElement>('input[name="redirectTo"]')!;
      const wanted = [...select.options].find((each) =>
        typeof choice === "string" ? each.value === choice || each.label === choice : each.label === choice.label,
      );
      if (!wanted) throw new Error(`no option ${JSON.stringify(choice)}`);
      input.value = to;
      select.value = wanted.value;
      if (submit) {
        select.dispatchEvent(new Event("input", { bubbles: true }));
        select.dispatchEvent(new Event("change", { bubbles: true }));
      }
    },
    { to: back, choice: option, submit: javaScriptEnabled },
  );
  if (!javaScriptEnabled) await button.click();
  await saved;
  await expect(page).toHaveURL((url) => url.pathname + url.search === back);
}

/** The layout wrapper, with the header and footer that layout has. */
export async function expectLayout(page: Page, layout: Layout) {
  await expect(page.locator(`.layout.layout-${layout}`)).toHaveCount(1);
  if (layout === "play") {
    await expect(page.locator("header.play-header")).toBeVisible();
    await expect(page.locator("footer.site-footer")).toHaveCount(0);
  } else {
    await expect(page.locator("header.site-header")).toBeVisible();
    await expect(page.locator("footer.site-footer")).toBeVisible();
  }
}

export async function expectDocumentLanguage(page: Page, lng: Locale) {
  await expect(page.locator("html")).toHaveAttribute("lang", lng);
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
}

/** Expected hreflang alternates of an unprefixed path: every locale plus x-default (the unprefixed English URL). */
export function expectedAlternates(origin: string, pathname: string): { hreflang: string; href: string }[] {
  return [
    ...LOCALES.map((lng) => ({ hreflang: lng, href: origin + localePath(lng, pathname) })),
    { hreflang: "x-default", href: origin + pathname },
  ];
}

/** The canonical and hreflang links in the document's <head>, as they are now. */
export async function readSeoLinks(page: Page) {
  return page.evaluate(() => ({
    canonical: [...document.head.querySelectorAll('link[rel="canonical"]')].map(
      (link) => link.getAttribute("href") ?? "",
    ),
    alternates: [...document.head.querySelectorAll('link[rel="alternate"][hreflang]')].map((link) => ({
      hreflang: link.getAttribute("hreflang") ?? "",
      href: link.getAttribute("href") ?? "",
    })),
  }));
}

/** What readSeoLinks should find: one canonical link and the eight alternates of the unprefixed `pathname`. */
export function expectedSeoLinks({
  canonical,
  pathname,
  origin,
}: {
  canonical: string;
  pathname: string;
  origin: string;
}) {
  return { canonical: [canonical], alternates: expectedAlternates(origin, pathname) };
}

/**
 * Exactly one canonical link with `canonical` as its href and the eight alternates of `pathname`. Read once: call it
 * after the page (and, with JavaScript, its hydration or navigation) has settled.
 */
export async function expectSeoLinks(page: Page, expected: { canonical: string; pathname: string; origin: string }) {
  expect(await readSeoLinks(page)).toEqual(expectedSeoLinks(expected));
}

/** Reason for running a check only in the js-on project: it talks HTTP and has nothing to do with the browser's JavaScript. */
export const HTTP_ONLY = "HTTP-level check, identical with and without JavaScript: it runs in the js-on project only";

/** The `lng` cookie the language switch sets. */
export async function localeCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === "lng");
}

// ---------------------------------------------------------------------------------------------------------------
// A signed-in learner: the account area is behind the sign-in guard. Each worker signs one learner in through the real
// form, the mail caught by global-setup's SMTP sink and the confirm page, then hands the session cookies to its tests.

export type Learner = { email: string; storageState: Awaited<ReturnType<BrowserContext["storageState"]>> };

/** The user agent of the config: a regular browser, not a bot. */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

async function signInLearner(browser: Browser, baseURL: string): Promise<Learner> {
  const email = uniqueAddress("routes-learner");
  const context = await browser.newContext({
    userAgent: BROWSER_USER_AGENT,
    baseURL,
    extraHTTPHeaders: forwardedFor(),
  });
  try {
    const page = await context.newPage();
    await page.goto("/form");
    await waitForHydration(page);
    await page.locator("main").getByLabel(t("en", "pages:form.emailLabel")).fill(email);
    await page
      .locator("main")
      .getByRole("button", { name: t("en", "pages:form.submit") })
      .click();
    await expect(page.getByRole("status")).toContainText(t("en", "toast.sent.title"));
    // The confirm page waits for the click (it never submits itself), then lands on the account home.
    await page.goto(linkIn(await mailFor(email)));
    await page.getByRole("button", { name: t("en", "pages:confirm.submit") }).click();
    await page.waitForURL((url) => url.pathname === "/account/home");
    await skipWelcome(page);
    return { email, storageState: await context.storageState() };
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The test object: every page opened in a test's context fails the test on a console error or an uncaught error.

export type ConsoleGuard = {
  /** The page is expected to answer 404, so the browser's "Failed to load resource ... 404" message is fine. */
  allow404(): void;
  /** The test makes a script chunk fail on purpose: the failed request and the failed dynamic import are fine. */
  allowFailedChunk(): void;
  /** Any other console error or page error the test expects, matched against "console.error: …" / "page error: …". */
  allow(pattern: RegExp): void;
  /** Watches the pages of a context the test created itself. */
  watch(context: BrowserContext): void;
};

const NOT_FOUND_RESOURCE = /^console\.error: Failed to load resource: the server responded with a status of 404/;
const FAILED_CHUNK = [
  /^console\.error: Failed to load resource: net::ERR_FAILED \(.*\/assets\/.+\.js\)$/,
  /dynamically imported module|Importing a module script failed|Unable to preload/,
];

/** The project that runs the no-JavaScript journeys in basic HTML mode. */
export const BASIC_PROJECT = "basic";
export const BASIC_MODE_COOKIE = "basicMode";

/** The signed basic-mode cookie, as the footer's switch sets it. */
async function basicModeCookie(playwright: PlaywrightWorkerArgs["playwright"], baseURL: string): Promise<string> {
  const request = await playwright.request.newContext({ baseURL });
  try {
    const response = await request.post("/basic-mode", {
      form: { mode: "basic", redirectTo: "/" },
      headers: { Origin: baseURL },
      maxRedirects: 0,
    });
    const header = response
      .headersArray()
      .find(({ name, value }) => name.toLowerCase() === "set-cookie" && value.startsWith(`${BASIC_MODE_COOKIE}=`));
    if (response.status() !== 302 || !header)
      throw new Error(`POST /basic-mode answered ${response.status()} without the cookie`);
    return header.value.split(";", 1)[0]!.slice(BASIC_MODE_COOKIE.length + 1);
  } finally {
    await request.dispose();
  }
}

/** A document that would run or preload script in basic mode. */
const SCRIPTED = /<script\b|rel="modulepreload"/;

export const test = base.extend<{ consoleGuard: ConsoleGuard }, { learner: Learner; basicMode: string | null }>({
  basicMode: [
    async ({ playwright }, use, workerInfo) => {
      const basic = workerInfo.project.name === BASIC_PROJECT;
      await use(basic ? await basicModeCookie(playwright, String(workerInfo.project.use.baseURL)) : null);
    },
    { scope: "worker" },
  ],
  context: async ({ context, basicMode, baseURL }, use) => {
    if (basicMode) await context.addCookies([{ name: BASIC_MODE_COOKIE, value: basicMode, url: baseURL! }]);
    await use(context);
  },
  learner: [
    async ({ browser }, use, workerInfo) => {
      await use(await signInLearner(browser, String(workerInfo.project.use.baseURL)));
    },
    { scope: "worker", timeout: 60_000 },
  ],
  consoleGuard: [
    async ({ context, basicMode }, use) => {
      const problems: string[] = [];
      const allowed: RegExp[] = [];
      const documentChecks: Promise<void>[] = [];
      const attach = (page: Page, inBasicMode = false) => {
        // In basic mode every page the test's own context receives is checked for scripts and module preloads.
        if (inBasicMode) {
          page.on("response", (response) => {
            if (response.request().resourceType() !== "document" || response.status() >= 300) return;
            documentChecks.push(
              response.text().then(
                (html) =>
                  void (
                    SCRIPTED.test(html) &&
                    problems.push(`basic mode: ${response.url()} carries a script or modulepreload`)
                  ),
                () => undefined,
              ),
            );
          });
        }
        page.on("console", (message) => {
          if (message.type() !== "error") return;
          const where = message.location().url;
          problems.push(`console.error: ${message.text()}${where ? ` (${where})` : ""}`);
        });
        page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      };
      const watch = (watched: BrowserContext, inBasicMode = false) => {
        watched.pages().forEach((page) => attach(page, inBasicMode));
        watched.on("page", (page) => attach(page, inBasicMode));
      };
      watch(context, basicMode !== null);
      await use({
        allow404: () => void allowed.push(NOT_FOUND_RESOURCE),
        allowFailedChunk: () => void allowed.push(...FAILED_CHUNK),
        allow: (pattern) => void allowed.push(pattern),
        watch: (watched) => watch(watched),
      });
      await Promise.all(documentChecks);
      const unexpected = problems.filter((problem) => !allowed.some((pattern) => pattern.test(problem)));
      expect(unexpected, "console errors and page errors").toEqual([]);
    },
    { auto: true },
  ],
});

/** A test whose pages are signed in as the worker's learner. */
export const learnerTest = test.extend({
  storageState: async ({ learner }, use) => use(learner.storageState),
});

/**
 * Presses My home's "Skip for now" on the welcome a new learner meets there, and waits for the dashboard; My home must
 * be open, hydrated with JavaScript.
 */
export async function skipWelcome(page: Page) {
  await page
    .locator("main")
    .getByRole("button", { name: t("en", "learning:welcome.skip") })
    .click();
  await expect(page.locator("main h1")).toHaveText(t("en", "titles.accountHome"));
}

/**
 * Answers My home's welcome, one step after another, on the open welcome in the interface language `lng`: the study
 * language (in "All other languages" when it is not among the most chosen), the level and the daily goal; resolves on
 * the page the last step leads to (the first lesson, or the public lists).
 */
export async function answerWelcome(
  page: Page,
  lng: Locale,
  { language, level, goal }: { language: string; level: string; goal: number },
) {
  const main = page.locator("main");
  const next = main.getByRole("button", { name: t(lng, "learning:welcome.next") });
  const radio = main.locator(`input[name="studyLanguage"][value="${language}"]`);
  if (!(await radio.isVisible())) await main.locator(".welcome-more summary").click();
  await radio.check();
  await next.click();
  await expect(page).toHaveURL(/[?&]step=level/);
  await main.locator(`input[name="level"][value="${level}"]`).check();
  await next.click();
  await expect(page).toHaveURL(/[?&]step=goal/);
  await main.locator(`input[name="goal"][value="${goal}"]`).check();
  await main.getByRole("button", { name: t(lng, "learning:welcome.finish") }).click();
  await expect(page).not.toHaveURL(/\/account\/home/);
}

/**
 * Signs a fresh learner in through the form, the e-mail and the confirm page, and waits on the account home (hydrated
 * with JavaScript); returns the address, made unique from `name`. My home's welcome is skipped unless `welcome` is
 * "keep".
 */
export async function signInFresh(
  page: Page,
  javaScriptEnabled: boolean,
  name: string,
  { welcome = "skip" }: { welcome?: "skip" | "keep" } = {},
): Promise<string> {
  const email = uniqueAddress(name);
  await page.goto("/form");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.locator("main").getByLabel(t("en", "pages:form.emailLabel")).fill(email);
  await page
    .locator("main")
    .getByRole("button", { name: t("en", "pages:form.submit") })
    .click();
  await expect(page.getByRole("status")).toContainText("Check your inbox");
  await page.goto(linkIn(await mailFor(email)));
  await page.getByRole("button", { name: t("en", "pages:confirm.submit") }).click();
  await expect(page).toHaveURL(/\/account\/home$/);
  if (javaScriptEnabled) await waitForHydration(page);
  if (welcome === "skip") await skipWelcome(page);
  return email;
}
