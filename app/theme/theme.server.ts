import { createCookie } from "react-router";
import { env } from "../config/env.server";
import { isTheme, type Theme } from "./theme";

/**
 * The visitor's colour theme, remembered for a year. A plain cookie named `theme` (its value is one of three words,
 * anything else counts as "system"): it changes the rendered page, so a page cache must key anonymous pages by it.
 */
export const themeCookie = createCookie("theme", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: env.secureCookies,
  maxAge: 365 * 24 * 60 * 60,
});

export async function readTheme(request: Request): Promise<Theme> {
  try {
    const value: unknown = await themeCookie.parse(request.headers.get("Cookie"));
    return isTheme(value) ? value : "system";
  } catch {
    return "system";
  }
}
