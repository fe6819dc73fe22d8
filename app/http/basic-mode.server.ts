import { createContext, type MiddlewareFunction } from "react-router";
import { isBasicMode, type BasicMode } from "./basic-mode";
import { readCookie, signedCookie } from "./cookies.server";

/** The learner's choice between basic HTML and the full site, kept for a year. */
export const BASIC_MODE_COOKIE = "basicMode";
export const basicModeCookie = signedCookie(BASIC_MODE_COOKIE, { maxAge: 365 * 24 * 60 * 60 });

/** Whether this request gets basic HTML: the learner's choice, else the browser's `Save-Data: on`. */
export const basicModeContext = createContext(false);

export function basicModeHeader(mode: BasicMode): Promise<string> {
  return basicModeCookie.serialize(mode);
}

export const basicModeMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const chosen = await readCookie<string>(basicModeCookie, request);
  const saveData = request.headers.get("Save-Data")?.trim().toLowerCase() === "on";
  const basic = isBasicMode(chosen) ? chosen === "basic" : saveData;
  context.set(basicModeContext, basic);
  const response = await next();
  response.headers.append("Vary", "Save-Data");
  // The offline review's service worker (public/sw.js) never controls a basic page: seeing this, it unregisters.
  if (basic) response.headers.set("X-Basic-Mode", "1");
  return response;
};
