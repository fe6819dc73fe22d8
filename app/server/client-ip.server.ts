import { createContext, RouterContextProvider } from "react-router";
import { requestLogContext, type RequestLogFields } from "./request-log.server";

/** The client's address as the server sees it (X-Forwarded-For only with TRUST_PROXY); null when unknown. */
export const clientIpContext = createContext<string | null>(null);

/** The per-request context server.ts hands to React Router, with the request's log fields when it is logged. */
export function createLoadContext(clientIp: string | null, logFields: RequestLogFields | null = null) {
  const context = new RouterContextProvider();
  context.set(clientIpContext, clientIp);
  context.set(requestLogContext, logFields);
  return context;
}
