import { redirect } from "react-router";
import { safeTarget, type SafeTargetOptions } from "./navigation";

/** A redirect through the safe-navigation gate; an unsafe target falls back to `fallback`. */
export function safeRedirect(to: unknown, fallback = "/", init?: ResponseInit & SafeTargetOptions): Response {
  const { external, origin, ...responseInit } = init ?? {};
  const target = safeTarget(to, { external, origin }) ?? safeTarget(fallback) ?? "/";
  return redirect(target, responseInit);
}
