export type ToastType = "success" | "error" | "info";
/** `field`: the form field the message is about and the value sent, for the page to show it again beside the field. */
export type Toast = {
  id: string;
  type: ToastType;
  title: string;
  description: string;
  field?: { name: string; value: string };
  /** A form that takes back what was just done (POST to `action` with `fields`), its button labelled `label`. */
  undo?: { label: string; action: string; fields: Record<string, string> };
};

export const TOAST_DURATION_MS = 5000;
/** A toast with an undo stays longer, and while the pointer or the focus is on it (components.css). */
export const UNDO_TOAST_DURATION_MS = 10_000;
export const MAX_TOASTS = 5;

/**
 * Sent by a request for a stored copy of a page (the offline review's shell, fetched in the background): it neither
 * shows nor takes the toasts waiting for the learner's next page, which would otherwise be spent on a page nobody sees
 * and kept in the copy.
 */
export const STORED_COPY_HEADER = "X-Stored-Copy";
