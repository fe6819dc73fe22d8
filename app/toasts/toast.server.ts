import { randomUUID } from "node:crypto";
import type { TFunction } from "i18next";
import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { readCookie, signedCookie } from "../http/cookies.server";
import { safeTarget } from "../http/navigation";
import { MAX_TOASTS, STORED_COPY_HEADER, type Toast, type ToastType } from "./toast";

/** The cookie carrying the toasts of the next page. */
export const TOAST_COOKIE = "toast";
const toastCookie = signedCookie(TOAST_COOKIE, { maxAge: 60 });

/** The toasts waiting for this request, read once by the toast middleware; `shown` once a page takes them. */
const pendingContext = createContext<{ toasts: Toast[]; shown: boolean }>({ toasts: [], shown: false });

/** The toasts waiting for this request, without taking them (a loader that looks for its own). */
export const waitingToasts = (context: Readonly<RouterContextProvider>): Toast[] => context.get(pendingContext).toasts;

/**
 * The toasts this request's page shows (the root loader): only then does the response clear their cookie, so a request
 * that shows no page (a resource route, a `.data` request that skips the root's loader) leaves them for the next one.
 */
export function takeToasts(context: Readonly<RouterContextProvider>): Toast[] {
  const pending = context.get(pendingContext);
  pending.shown = true;
  return pending.toasts;
}

function isToast(value: unknown): value is Toast {
  const toast = value as Toast;
  return typeof toast?.id === "string" && typeof toast.title === "string" && typeof toast.description === "string";
}

async function pendingToasts(request: Request): Promise<Toast[]> {
  const value = await readCookie<unknown>(toastCookie, request);
  return Array.isArray(value) ? value.filter(isToast) : [];
}

export type NewToast = Omit<Toast, "id">;

/**
 * A toast in the request's language: `key` names a pair of translations `{key}.title` and `{key}.description`, or the
 * two keys are given apart. `values` are interpolated into both.
 */
export function translatedToast(
  t: TFunction,
  type: ToastType,
  key: string | { title: string; description: string },
  values: Record<string, unknown> = {},
): NewToast {
  const keys = typeof key === "string" ? { title: `${key}.title`, description: `${key}.description` } : key;
  return { type, title: t(keys.title, values), description: t(keys.description, values) };
}

/** A Set-Cookie header that queues one more toast (already translated) for the next page. */
export async function toastHeader(request: Request, toast: NewToast): Promise<string> {
  const queued = [...(await pendingToasts(request)), { id: randomUUID(), ...toast }].slice(-MAX_TOASTS);
  return toastCookie.serialize(queued);
}

/** Redirect (through the safe-navigation gate) and show a toast on the page it leads to. */
export async function redirectWithToast(
  request: Request,
  to: string,
  toast: NewToast,
  init: { headers?: HeadersInit } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(request, toast));
  return redirect(safeTarget(to) ?? "/", { headers });
}

/**
 * Hands the queued toasts to the page and, once the page took them, clears the cookie, unless the response queues new
 * ones. A request for a stored copy (STORED_COPY_HEADER) leaves them for the page the learner sees next.
 */
export const toastMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const pending = { toasts: request.headers.has(STORED_COPY_HEADER) ? [] : await pendingToasts(request), shown: false };
  context.set(pendingContext, pending);
  const response = await next();
  const isRedirect = response.status >= 300 && response.status < 400;
  const queuesToast = response.headers.getSetCookie().some((cookie) => cookie.startsWith("toast="));
  if (pending.shown && pending.toasts.length > 0 && !isRedirect && !queuesToast) {
    response.headers.append("Set-Cookie", await toastCookie.serialize([], { maxAge: 0 }));
  }
  return response;
};
