import { useEffect, useState } from "react";
import { Form } from "react-router";
import { useTranslation } from "../i18n/use-translation";
import { useHydrated } from "remix-utils/use-hydrated";
import { TOAST_DURATION_MS, UNDO_TOAST_DURATION_MS, type Toast } from "./toast";

const durationOf = (toast: Toast) => (toast.undo ? UNDO_TOAST_DURATION_MS : TOAST_DURATION_MS);

/** Whether the learner is on the toast (pointer or focus): it waits until they leave it. */
const inUse = (id: string) =>
  document.querySelector(`[data-toast-id="${CSS.escape(id)}"]`)?.matches(":hover, :focus-within") ?? false;

/**
 * Bottom-right messages, rendered by the server so they show without JavaScript (a CSS animation hides them after
 * five seconds, ten for one with an undo); with JavaScript they can also be dismissed. An undo is a POST form, and
 * with JavaScript the page it returns to keeps its place (`inPlace`).
 */
export function Toaster({ toasts }: { toasts: Toast[] }) {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState<string[]>([]);
  const interactive = useHydrated();
  useEffect(() => {
    if (toasts.length === 0) return;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const later = (toast: Toast, ms: number) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (inUse(toast.id)) later(toast, TOAST_DURATION_MS);
        else setDismissed((ids) => [...ids, toast.id]);
      }, ms);
      timers.add(timer);
    };
    for (const toast of toasts) later(toast, durationOf(toast));
    return () => timers.forEach(clearTimeout);
  }, [toasts]);
  const visible = toasts.filter((toast) => !dismissed.includes(toast.id));
  return (
    // The live region is a <div>: a list may not carry the status role.
    <div className="toast-region" role="status" aria-live="polite" aria-label={t("toast.region")}>
      <ol className="toasts">
        {visible.map((toast) => (
          <li
            key={toast.id}
            className={`toast toast-${toast.type}${toast.undo ? " toast-with-undo" : ""}`}
            data-toast-id={toast.id}
          >
            <div>
              <strong>{toast.title}</strong>
              <p>{toast.description}</p>
            </div>
            {toast.undo ? (
              <Form method="post" action={toast.undo.action} preventScrollReset className="toast-undo">
                {Object.entries(toast.undo.fields).map(([name, value]) => (
                  <input key={name} type="hidden" name={name} value={value} />
                ))}
                {interactive ? <input type="hidden" name="inPlace" value="1" /> : null}
                <button type="submit" className="button button-small toast-undo-button">
                  {toast.undo.label}
                </button>
              </Form>
            ) : null}
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
