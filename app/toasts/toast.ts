export type ToastType = "success" | "error" | "info";
export type Toast = { id: string; type: ToastType; title: string; description: string };

export const TOAST_DURATION_MS = 5000;
export const MAX_TOASTS = 5;
