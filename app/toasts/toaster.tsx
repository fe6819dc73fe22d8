import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import { Form } from "react-router";
import { useTranslation } from "../i18n/use-translation";
import { useHydrated } from "remix-utils/use-hydrated";
import { clearPlacement, type Box, type Placement } from "./placement";
import { TOAST_DURATION_MS, UNDO_TOAST_DURATION_MS, type Toast } from "./toast";

const durationOf = (toast: Toast) => (toast.undo ? UNDO_TOAST_DURATION_MS : TOAST_DURATION_MS);

/** Whether the learner is on the toast (pointer or focus): it waits until they leave it. */
const inUse = (id: string) =>
  document.querySelector(`[data-toast-id="${CSS.escape(id)}"]`)?.matches(":hover, :focus-within") ?? false;

/** What a learner can press or type in: the stack keeps clear of these. */
const ACTIONS = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex='-1'])";
/** Phones: the messages are in the page's flow (components.css), not in a corner. */
const PHONE = "(max-width: 40rem)";

/**
 * Wide screens: the stack moves from the bottom-right corner to the nearest place that covers no action in view
 * (app/toasts/placement.ts), when the messages show and as the page scrolls or the window changes size.
 */
function useClearPlacement(shown: string): RefObject<HTMLDivElement | null> {
  const region = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = region.current;
    if (!element || shown === "") return;
    let frame = 0;
    const place = () => {
      frame = 0;
      moveTo(element, null);
      if (window.matchMedia(PHONE).matches) return;
      const stack = element.getBoundingClientRect();
      const view = { width: document.documentElement.clientWidth, height: window.innerHeight };
      const top = document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0;
      const actions: Box[] = [];
      for (const action of document.querySelectorAll(ACTIONS)) {
        if (element.contains(action)) continue;
        const box = action.getBoundingClientRect();
        const inView = box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < view.height;
        if (inView && action.checkVisibility({ visibilityProperty: true })) actions.push(box);
      }
      moveTo(element, clearPlacement(stack, { ...view, top: Math.max(0, top) }, actions));
    };
    const later = () => {
      frame ||= requestAnimationFrame(place);
    };
    place();
    window.addEventListener("scroll", later, { passive: true });
    window.addEventListener("resize", later);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", later);
      window.removeEventListener("resize", later);
      moveTo(element, null);
    };
  }, [shown]);
  return region;
}

/** The stack at a placement, or back at the stylesheet's corner. */
function moveTo(element: HTMLElement, placement: Placement | null) {
  element.style.setProperty("right", placement ? `${placement.right}px` : "");
  element.style.setProperty("bottom", placement ? `${placement.bottom}px` : "");
}

/**
 * Bottom-right messages, rendered by the server so they show without JavaScript (a CSS animation hides them after
 * five seconds, ten for one with an undo; without JavaScript they take their place in the page's flow instead of a
 * corner, so they cover nothing); with JavaScript they can also be dismissed, and they move out of the way of any
 * action under them. An undo is a POST form, and with JavaScript the page it returns to keeps its place (`inPlace`).
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
  const region = useClearPlacement(visible.map((toast) => toast.id).join(" "));
  return (
    // The live region is a <div>: a list may not carry the status role.
    <div ref={region} className="toast-region" role="status" aria-live="polite" aria-label={t("toast.region")}>
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
