import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, NavLink, useLocation, useRouteLoaderData } from "react-router";
import { useBasicMode } from "../http/basic-mode";
import type { RootData } from "../root";
import { ThemeSwitch } from "../theme/theme-switch";
import { LanguageSwitch } from "./language-switch";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";

function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href="#main">
      {t("nav.skipToContent")}
    </a>
  );
}

function Brand() {
  const to = useLocalePath();
  return (
    <Link to={to("/")} className="brand">
      Polyglot
    </Link>
  );
}

function SignOutButton() {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Form method="post" action={to(PATHS.logout)}>
      <button type="submit" className="button button-secondary sign-out">
        {t("nav.signOut")}
      </button>
    </Form>
  );
}

/** Sign-in link for visitors, account link for a signed-in learner: always in the header's one row. */
function AccountAction() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const user = useRouteLoaderData<RootData>("root")?.user;
  if (!user)
    return (
      <Link to={to(PATHS.signIn)} className="button header-action">
        {t("nav.signIn")}
      </Link>
    );
  return (
    <Link to={to(PATHS.learnerHome)} className="button header-action">
      {t("nav.myAccount")}
    </Link>
  );
}

/**
 * Navigation, language switch and sign-out. On phones they fold into a disclosure (works without JavaScript); on wider
 * screens the stylesheet shows its content in the header row and hides the summary.
 */
function SiteMenu({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  // A client-side navigation keeps the layout: a new element per page folds the menu away as a page load would.
  const { pathname } = useLocation();
  return (
    <details className="site-menu" key={pathname}>
      <summary>{t("nav.menu")}</summary>
      <div className="site-menu-panel">{children}</div>
    </details>
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

function Footer() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const year = useRouteLoaderData<RootData>("root")?.year ?? 2026;
  return (
    <footer className="site-footer">
      <nav aria-label={t("footer.company")}>
        <ul>
          <li>
            <Link to={to(PATHS.privacy)}>{t("footer.privacy")}</Link>
          </li>
          <li>
            <Link to={to(PATHS.termsOfUse)}>{t("footer.termsOfUse")}</Link>
          </li>
          <li>
            <Link to={to(PATHS.crowdfunding)}>{t("footer.crowdfunding")}</Link>
          </li>
        </ul>
      </nav>
      <ThemeSwitch />
      <p>{t("footer.madeFor")}</p>
      <p>{t("footer.copyright", { year })}</p>
      <BasicModeSwitch />
    </footer>
  );
}

/** Header with navigation, language switch and sign-in link; footer with the company pages and the theme choice. */
export function DefaultLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const user = useRouteLoaderData<RootData>("root")?.user;
  return (
    <div className="layout layout-default">
      <SkipLink />
      <header className="site-header">
        <Brand />
        <SiteMenu>
          <nav aria-label={t("nav.main")}>
            <ul>
              <li>
                <NavLink to={to(PATHS.explore)}>{t("nav.explore")}</NavLink>
              </li>
              <li>
                <NavLink to={to(PATHS.sampleTexts)}>{t("reading:samplesNav")}</NavLink>
              </li>
              <li>
                <NavLink to={to(PATHS.subscription)}>{t("nav.subscription")}</NavLink>
              </li>
              <li>
                <NavLink to={to(PATHS.crowdfunding)}>{t("nav.crowdfunding")}</NavLink>
              </li>
            </ul>
          </nav>
          <LanguageSwitch />
          {user ? <SignOutButton /> : null}
        </SiteMenu>
        <AccountAction />
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </div>
  );
}

/** The member area: the default header plus the account navigation. */
export function AccountLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <div className="layout layout-account">
      <SkipLink />
      <header className="site-header">
        <Brand />
        <SiteMenu>
          <nav aria-label={t("nav.account")}>
            <ul>
              <li>
                <NavLink to={to(PATHS.learnerHome)}>{t("nav.accountHome")}</NavLink>
              </li>
              <li>
                <NavLink to={to(PATHS.memberTerms)}>{t("nav.member")}</NavLink>
              </li>
              <li>
                <NavLink to={to(PATHS.texts)}>{t("reading:nav")}</NavLink>
              </li>
              <li>
                <NavLink to={to(PATHS.publicLists)}>{t("nav.public")}</NavLink>
              </li>
              <li>
                <NavLink to={to(PATHS.player)}>{t("nav.player")}</NavLink>
              </li>
              <li>
                <NavLink to={to(PATHS.statistics)}>{t("nav.statistics")}</NavLink>
              </li>
              <li>
                <NavLink to={to(PATHS.import)}>{t("nav.import")}</NavLink>
              </li>
              <li>
                <NavLink to={to(PATHS.settings)}>{t("nav.settings")}</NavLink>
              </li>
              <li>
                <NavLink to={to(PATHS.billing)}>{t("nav.billing")}</NavLink>
              </li>
              <li>
                <NavLink to={to(PATHS.profile)}>{t("nav.profile")}</NavLink>
              </li>
            </ul>
          </nav>
          <LanguageSwitch />
          <SignOutButton />
        </SiteMenu>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </div>
  );
}

/** Minimal and full width, for focused activities. */
export function PlayLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <div className="layout layout-play">
      <SkipLink />
      <header className="play-header">
        <Brand />
        <Link to={to(PATHS.learnerHome)}>{t("nav.backToAccount")}</Link>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
