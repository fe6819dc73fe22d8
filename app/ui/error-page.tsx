import { useTranslation } from "../i18n/use-translation";
import { isRouteErrorResponse, Link, useLocation, useRouteError } from "react-router";
import { isErrorPayload } from "../http/errors";
import { splitLocale } from "../i18n/locales";
import { useLocalePath } from "../i18n/use-locale";
import { ErrorTitle } from "./seo";
import { PATHS } from "../http/paths";

const CLIENT_ERROR_KEYS: Record<number, string> = {
  403: "errors.forbidden",
  405: "errors.methodNotAllowed",
  413: "errors.tooLarge",
  415: "errors.unsupportedBody",
};

/** Status and translated message of whatever a route threw. */
export function useErrorDescription(): { status: number; message: string; detail?: string; deleted?: boolean } {
  const error = useRouteError();
  const { t } = useTranslation();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    const payload = isErrorPayload(error.data) ? error.data : { kind: "not-found" as const, path: location.pathname };
    const key = payload.kind === "invalid-param" ? "errors.invalidParam" : "errors.notFound";
    return { status: 404, message: t(key, { path: payload.path }), deleted: payload.kind === "deleted" };
  }
  // The import page takes files, with a larger limit than forms: its 413 names that limit.
  if (isRouteErrorResponse(error) && error.status === 413 && splitLocale(location.pathname).path === PATHS.import)
    return { status: 413, message: t("errors.importTooLarge") };
  if (isRouteErrorResponse(error) && error.status < 500) {
    return { status: error.status, message: t(CLIENT_ERROR_KEYS[error.status] ?? "errors.badRequest") };
  }
  if (isRouteErrorResponse(error) && error.status === 503) return { status: 503, message: t("errors.unavailable") };
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return { status, message: t("errors.internal"), detail };
}

/**
 * The error page: a not-found variant for 404, a general one otherwise. Rendered inside the layout. A 404's heading is
 * short; the spec's message, with the address that may be long, is the paragraph below it.
 */
export function ErrorPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { status, message, detail, deleted } = useErrorDescription();
  const notFound = status === 404;
  const { path } = splitLocale(useLocation().pathname);
  return (
    <section className="error-page" data-status={status} data-path={path}>
      <ErrorTitle
        status={status}
        message={
          notFound ? t("errors.notFoundTitle") : status >= 500 && status !== 503 ? t("errors.internal") : message
        }
      />
      <p className="eyebrow">{t("errors.status", { status })}</p>
      <h1>{deleted ? t("errors.termDeleted") : notFound ? t("errors.notFoundTitle") : message}</h1>
      {notFound ? <p className="error-path">{message}</p> : null}
      {deleted ? (
        <p>{t("errors.termDeletedHint")}</p>
      ) : notFound ? (
        <p>{t("errors.notFoundHint")}</p>
      ) : status === 503 ? (
        <p>{t("errors.unavailableHint")}</p>
      ) : status >= 500 ? (
        <p>{t("errors.internalHint")}</p>
      ) : null}
      <ul className="error-links">
        {deleted ? (
          <li>
            <Link to={to(PATHS.memberTerms)}>{t("nav.member")}</Link>
          </li>
        ) : null}
        <li>
          <Link to={to("/")}>{t("errors.backHome")}</Link>
        </li>
        <li>
          <Link to={to(PATHS.explore)}>{t("errors.explore")}</Link>
        </li>
      </ul>
      {detail ? <pre className="error-detail">{detail}</pre> : null}
    </section>
  );
}
