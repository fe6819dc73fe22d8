import type { ReactNode } from "react";
import { useTranslation } from "../i18n/use-translation";
import { Form, Link, NavLink, useLocation, useMatches, useRouteLoaderData } from "react-router";
import { useBasicMode } from "../http/basic-mode";
import type { RootData } from "../root";
import { ThemeSwitch } from "../theme/theme-switch";
import { Toaster } from "../toasts/toaster";
import { LanguageLinks, LanguageSwitch } from "./language-switch";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";
import { Logo } from "./logo";
import type { PageHandle } from "./seo";

/** What the layout routes load for the header: the number the review would show now (null for a visitor). */
/** The header's review count, and the moments it changes by itself (what a page kept in memory is drawn again at). */
export type LayoutData = { dueNow: number | null; changesAt: Date[] };
const LAYOUT_ROUTES = ["routes/($lang).account", "routes/($lang)._default"];

function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href="#main">
      {t("nav.skipToContent")}
    </a>
  );
}

function Brand({ to }: { to: string }) {
  return (
    <Link to={to} className="brand">
      <Logo />
      <span className="brand-name">Polyglot</span>
    </Link>
  );
}

function SignOutButton() {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Form method="post" action={to(PATHS.logout)}>
      <button type="submit" className="menu-item sign-out">
        {t("nav.signOut")}
      </button>
    </Form>
  );
}

/**
 * A disclosure that works without JavaScript. A client-side navigation keeps the layout: a new element per page folds
 * it away as a page load would.
 */
function Disclosure({ className, summary, children }: { className: string; summary: ReactNode; children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <details className={className} key={pathname}>
      <summary>{summary}</summary>
      <div className="menu-panel">{children}</div>
    </details>
  );
}

/** "Review" with the number of cards the review would show now (today's queue under the daily limits). */
function ReviewLink({ className }: { className?: string }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const account = useRouteLoaderData<LayoutData>(LAYOUT_ROUTES[0]!);
  const publicPages = useRouteLoaderData<LayoutData>(LAYOUT_ROUTES[1]!);
  const due = (account ?? publicPages)?.dueNow ?? undefined;
  return (
    <NavLink to={to(PATHS.review)} className={className}>
      {t("nav.review")}
      {due === undefined ? null : (
        <>
          {" "}
          <span className="due-count" data-zero={due === 0 ? "" : undefined}>
            {due}
          </span>
        </>
      )}
    </NavLink>
  );
}

/** A signed-in learner's header: the study destinations in one row, the account's pages in a menu. */
function LearnerHeader() {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <header className="site-header">
      <Brand to={to(PATHS.learnerHome)} />
      <ReviewLink className="review-shortcut" />
      <Disclosure className="site-menu" summary={<span className="menu-label">{t("nav.menu")}</span>}>
        <nav aria-label={t("nav.account")}>
          <ul>
            <li className="nav-review">
              <ReviewLink />
            </li>
            <li>
              <NavLink to={to(PATHS.texts)}>{t("nav.read")}</NavLink>
            </li>
            <li>
              <NavLink to={to(PATHS.memberTerms)}>{t("nav.member")}</NavLink>
            </li>
            <li>
              <NavLink to={to(PATHS.publicLists)}>{t("nav.lists")}</NavLink>
            </li>
            <li>
              <NavLink to={to(PATHS.statistics)}>{t("nav.statistics")}</NavLink>
            </li>
          </ul>
        </nav>
        <Disclosure className="account-menu" summary={t("nav.myAccount")}>
          <ul>
            <li>
              <NavLink className="menu-item" to={to(PATHS.learnerHome)} end>
                {t("nav.accountHome")}
              </NavLink>
            </li>
            <li>
              <NavLink className="menu-item" to={to(PATHS.profile)}>
                {t("nav.profile")}
              </NavLink>
            </li>
            <li>
              <NavLink className="menu-item" to={to(PATHS.settings)}>
                {t("nav.settings")}
              </NavLink>
            </li>
            <li>
              <NavLink className="menu-item" to={to(PATHS.billing)}>
                {t("nav.billing")}
              </NavLink>
            </li>
            <li>
              <NavLink className="menu-item" to={to(PATHS.import)}>
                {t("nav.import")}
              </NavLink>
            </li>
          </ul>
          <SignOutButton />
        </Disclosure>
      </Disclosure>
    </header>
  );
}

/** A visitor's header: what there is to see, the plans, a compact language switch and the way in. */
function VisitorHeader() {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <header className="site-header">
      <Brand to={to(PATHS.home)} />
      <Disclosure className="site-menu" summary={<span className="menu-label">{t("nav.menu")}</span>}>
        <nav aria-label={t("nav.main")}>
          <ul>
            <li>
              <NavLink to={to(PATHS.explore)}>{t("nav.explore")}</NavLink>
            </li>
            <li>
              <NavLink to={to(PATHS.subscription)}>{t("nav.subscription")}</NavLink>
            </li>
          </ul>
        </nav>
        <LanguageLinks />
      </Disclosure>
      <Link to={to(PATHS.signIn)} className="button header-action">
        {t("nav.signIn")}
      </Link>
    </header>
  );
}

/** Basic HTML (no JavaScript) or the full site: a plain form POST that reloads the page either way. */
function BasicModeSwitch() {
  const { t } = useTranslation();
  const basic = useBasicMode();
  const location = useLocation();
  return (
    <Form method="post" action="/basic-mode" reloadDocument className="basic-mode-switch">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <input type="hidden" name="mode" value={basic ? "full" : "basic"} />
      <button type="submit" className="link-button">
        {t(basic ? "footer.fullMode" : "footer.basicMode")}
      </button>
    </Form>
  );
}

/** A light footer: the company pages, the interface language, the theme and the basic mode. */
function Footer() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const year = useRouteLoaderData<RootData>("root")?.year ?? 2026;
  return (
    <footer className="site-footer">
      <div className="footer-row">
        <nav aria-label={t("footer.company")}>
          <ul>
            <li>
              <Link to={to(PATHS.privacy)}>{t("footer.privacy")}</Link>
            </li>
            <li>
              <Link to={to(PATHS.termsOfUse)}>{t("footer.termsOfUse")}</Link>
            </li>
            <li>
              <Link to={to(PATHS.dictionaries)}>{t("footer.dictionaries")}</Link>
            </li>
            <li>
              <Link to={to(PATHS.crowdfunding)}>{t("footer.crowdfunding")}</Link>
            </li>
          </ul>
        </nav>
        <div className="footer-settings">
          <LanguageSwitch />
          <ThemeSwitch />
        </div>
      </div>
      <div className="footer-row footer-small">
        <p>{t("footer.madeFor")}</p>
        <p>{t("footer.copyright", { year })}</p>
        <BasicModeSwitch />
      </div>
    </footer>
  );
}

/**
 * The one page frame: skip link, header, the messages (in the page's flow on phones, in a corner on wide screens),
 * main and (except for focused activities) the footer.
 */
function Shell({ variant, header, children }: { variant: string; header: ReactNode; children: ReactNode }) {
  const toasts = useRouteLoaderData<RootData>("root")?.toasts ?? [];
  return (
    <div className={`layout layout-${variant}`}>
      <SkipLink />
      {header}
      <Toaster toasts={toasts} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      {variant === "play" || variant === "focus" ? null : <Footer />}
    </div>
  );
}

/** Public pages: the visitor's header, or the learner's when signed in. */
export function DefaultLayout({ children }: { children: ReactNode }) {
  const user = useRouteLoaderData<RootData>("root")?.user;
  return (
    <Shell variant="default" header={user ? <LearnerHeader /> : <VisitorHeader />}>
      {children}
    </Shell>
  );
}

/** The header of a focused activity: the brand and one way out, nothing else to press by mistake. */
function FocusHeader({ signOut }: { signOut: boolean }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <header className="site-header focus-header">
      <Brand to={to(PATHS.learnerHome)} />
      <div className="focus-actions">
        <Link to={to(PATHS.learnerHome)} className="leave-focus">
          {t("nav.leaveReview")}
        </Link>
        {signOut ? <SignOutButton /> : null}
      </div>
    </header>
  );
}

/** The member area; a page whose handle says `focus` (the review) gets the focused frame. */
export function AccountLayout({ children }: { children: ReactNode }) {
  const focus = useMatches()
    .map((match) => {
      const value = (match.handle as PageHandle | undefined)?.focus;
      return typeof value === "function" ? value(match.loaderData) : value;
    })
    .find(Boolean);
  return focus ? (
    <Shell variant="focus" header={<FocusHeader signOut={focus === "sign-out"} />}>
      {children}
    </Shell>
  ) : (
    <Shell variant="account" header={<LearnerHeader />}>
      {children}
    </Shell>
  );
}

/** Minimal and full width, for focused activities. */
export function PlayLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Shell
      variant="play"
      header={
        <header className="play-header">
          <Brand to={to(PATHS.home)} />
          <Link to={to(PATHS.learnerHome)}>{t("nav.backToAccount")}</Link>
        </header>
      }
    >
      {children}
    </Shell>
  );
}
