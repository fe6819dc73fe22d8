export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export function isTheme(value: unknown): value is Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}

/** The `color-scheme` the browser uses for its own parts (scroll bars, form controls) under each choice. */
export function colorScheme(theme: Theme): string {
  return theme === "system" ? "light dark" : theme;
}
