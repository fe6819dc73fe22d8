import { data, isRouteErrorResponse, type MiddlewareFunction } from "react-router";
import type { ErrorPayload } from "./errors";
import { checkHealth } from "./lifecycle.server";

/** How long the health check may take when a request failed; a dependency slower than this counts as down. */
const CHECK_DEADLINE_MS = 1_000;

async function dependenciesDown(): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("timeout")), CHECK_DEADLINE_MS)));
  try {
    await Promise.race([checkHealth(), deadline]);
    return false;
  } catch {
    return true;
  } finally {
    clearTimeout(timer);
  }
}

function unavailable(request: Request): never {
  const path = new URL(request.url).pathname.replace(/\.data$/, "") || "/";
  throw data<ErrorPayload>({ kind: "unavailable", path }, { status: 503, headers: { "Retry-After": "10" } });
}

/**
 * A request that fails while the database does not answer (PostgreSQL restarting, a full disk) was not the visitor's
 * fault nor a bug: it is answered 503 with a page that says to try again, instead of 500. Every write runs in one
 * statement or transaction, so a failed request has changed nothing.
 */
export const unavailableMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    if (error instanceof Response || isRouteErrorResponse(error) || !(await dependenciesDown())) throw error;
    unavailable(request);
  }
  if (response.status === 500 && (await dependenciesDown())) unavailable(request);
  return response;
};
