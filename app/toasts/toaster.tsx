import { useEffect, useState } from "react";
import { useTranslation } from "../i18n/use-translation";
import { useHydrated } from "remix-utils/use-hydrated";
import { TOAST_DURATION_MS, type Toast } from "./toast";

/**
 * Bottom-right messages, rendered by the server so they show without JavaScript (a CSS animation hides them after
 * five seconds); with JavaScript they can also be dismissed.
 */
export function Toaster({ toasts }: { toasts: Toast[] }) {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState<string[]>([]);
  const interactive = useHydrated();
  useEffect(() => {
    if (toasts.length === 0) return;
    const timer = setTimeout(
      () => setDismissed((ids) => [...ids, ...toasts.map((toast) => toast.id)]),
      TOAST_DURATION_MS,
    );
    return () => clearTimeout(timer);
  }, [toasts]);
  const visible = toasts.filter((toast) => !dismissed.includes(toast.id));
  return (
    // The live region is a <div>: a list may not carry the status role.
    <div className="toast-region" role="status" aria-live="polite" aria-label={t("toast.region")}>
      <ol className="toasts">
        {visible.map((toast) => (
          <li key={toast.id} className={`toast toast-${toast.type}`} data-toast-id={toast.id}>
            <div>
              <strong>{toast.title}</strong>
              <p>{toast.description}</p>
            </div>
            {interactive ? (
              <button
                type="button"
                aria-label={t("toast.dismiss")}
                onClick={() => setDismissed((ids) => [...ids, toast.id])}
              >
                ×
              </button>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
