import { createCookie } from "react-router";
import { env } from "../config/env.server";

/** Whether the review page's keyboard shortcuts are on (the default) or off, remembered for a year on this browser. */
export const reviewShortcutsCookie = createCookie("review-shortcuts", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: env.secureCookies,
  maxAge: 365 * 24 * 60 * 60,
});

export async function reviewShortcutsOn(request: Request): Promise<boolean> {
  try {
    return (await reviewShortcutsCookie.parse(request.headers.get("Cookie"))) !== "off";
  } catch {
    return true;
  }
}

export function reviewShortcutsHeader(on: boolean): Promise<string> {
  return reviewShortcutsCookie.serialize(on ? "on" : "off");
}
