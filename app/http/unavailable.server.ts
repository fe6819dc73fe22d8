import { data, isRouteErrorResponse, type MiddlewareFunction } from "react-router";
import type { ErrorPayload } from "./errors";
import { checkHealth, connectionLostWithin } from "../server/lifecycle.server";

/** How long the health check may take when a request failed; a dependency slower than this counts as down. */
const CHECK_DEADLINE_MS = 1_000;
/**
 * A request that failed this soon after a dropped connection failed because of it, even when the database already
 * answers again by the time it is checked (a quick PostgreSQL restart).
 */
const LOST_CONNECTION_WINDOW_MS = 10_000;

async function failedForDependency(): Promise<boolean> {
  return connectionLostWithin(LOST_CONNECTION_WINDOW_MS) || (await dependenciesDown());
}

async function dependenciesDown(): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error("timeout")), CHECK_DEADLINE_MS)),
  );
  try {
    await Promise.race([checkHealth(), deadline]);
    return false;
  } catch {
    return true;
  } finally {
    clearTimeout(timer);
  }
}

/** The last health check before a write, shared by the writes of the next second while it says healthy. */
let recentCheck: { at: number; down: Promise<boolean> } | null = null;
const RECENT_MS = 1_000;

async function downRecently(): Promise<boolean> {
  const now = Date.now();
  const reusable = recentCheck && now - recentCheck.at <= RECENT_MS && !(await recentCheck.down);
  if (!reusable) recentCheck = { at: now, down: dependenciesDown() };
  return recentCheck!.down;
}

function unavailable(request: Request): never {
  const path = new URL(request.url).pathname.replace(/\.data$/, "") || "/";
  // React Router keeps the status of an error thrown by middleware, not its headers: entry.server adds Retry-After.
  throw data<ErrorPayload>({ kind: "unavailable", path }, { status: 503 });
}

/**
 * A request that fails while the database does not answer (PostgreSQL restarting, a full disk) was not the visitor's
 * fault nor a bug: it is answered 503 with a page that says to try again, instead of 500. Every write runs in one
 * statement or transaction, so a failed request has changed nothing. Writes are refused up front while the database
 * is down (a passed check is trusted for a second), so a full disk is never written to.
 */
export const unavailableMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  // A write is not even tried while the database is known to be down or its disk full.
  if (request.method !== "GET" && request.method !== "HEAD" && (await downRecently())) unavailable(request);
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    if (error instanceof Response || isRouteErrorResponse(error) || !(await failedForDependency())) throw error;
    unavailable(request);
  }
  if (response.status === 500 && (await failedForDependency())) unavailable(request);
  return response;
};
