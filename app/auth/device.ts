/**
 * A session's device in plain words, from the User-Agent the browser sent at sign-in: the browser and the operating
 * system by their own (untranslated) names, e.g. `{ browser: "Firefox", os: "Linux" }`. Order matters: Edge and
 * Opera also say "Chrome", Chrome also says "Safari", Android also says "Linux".
 */
export type Device = { browser: string | null; os: string | null };

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bYaBrowser\//, "Yandex Browser"],
  [/\bVivaldi\//, "Vivaldi"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

const first = (list: [RegExp, string][], userAgent: string) =>
  list.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;

export function deviceOf(userAgent: string): Device {
  return { browser: first(BROWSERS, userAgent), os: first(SYSTEMS, userAgent) };
}
