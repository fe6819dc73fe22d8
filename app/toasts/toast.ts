export type ToastType = "success" | "error" | "info";
/** `field`: the form field the message is about and the value sent, for the page to show it again beside the field. */
export type Toast = {
  id: string;
  type: ToastType;
  title: string;
  description: string;
  field?: { name: string; value: string };
};

export const TOAST_DURATION_MS = 5000;
export const MAX_TOASTS = 5;
