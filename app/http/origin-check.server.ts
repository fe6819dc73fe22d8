import { data, type MiddlewareFunction } from "react-router";
import { env } from "../config/env.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses cross-site form posts to every route, resource routes included. Browsers always send Origin with a POST;
 * a request without it (a server-to-server call) is judged by Sec-Fetch-Site when present. This is the one check:
 * React Router's own (a plain-text 400) is switched off in react-router.config.ts so the refusal is the translated
 * error page.
 */
export const originCheckMiddleware: MiddlewareFunction<Response> = ({ request }, next) => {
  if (SAFE_METHODS.has(request.method)) return next();
  const origin = request.headers.get("Origin");
  const allowed = new Set([new URL(request.url).origin, env.APP_URL]);
  const site = request.headers.get("Sec-Fetch-Site");
  // An empty or opaque ("null") Origin is refused like a foreign one.
  if ((origin !== null && !allowed.has(origin)) || site === "cross-site") {
    throw data("Cross-site request refused", { status: 403 });
  }
  return next();
};
