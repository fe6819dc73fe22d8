import { Link } from "react-router";
import { useTranslation } from "../i18n/use-translation";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";

/** Whether the offline review reached the server last time it tried, and what became of the grades it sent. */
export type OfflineSync = { state: "unknown" | "offline" | "online"; sent: number; elsewhere: number; failed: number };

/** The offline review's notice: offline with the grades waiting, or back online with what was sent. */
export function OfflineStatus({ sync, pending }: { sync: OfflineSync; pending: number }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <div className="notice offline-status" role="status">
      {sync.state === "offline" ? (
        <>
          <p>
            <strong>{t("offline.reviewOffline")}</strong>
          </p>
          <p>{t("offline.waiting", { count: pending })}</p>
        </>
      ) : sync.state === "online" ? (
        <>
          <p>{pending > 0 ? t("offline.waiting", { count: pending }) : t("offline.allSent")}</p>
          {sync.elsewhere > 0 ? <p>{t("offline.elsewhere", { count: sync.elsewhere })}</p> : null}
          {sync.failed > 0 ? <p>{t("offline.failed", { count: sync.failed })}</p> : null}
          <p>
            <Link to={to(PATHS.review)} reloadDocument>
              {t("offline.backOnline")}
            </Link>
          </p>
        </>
      ) : null}
    </div>
  );
}
