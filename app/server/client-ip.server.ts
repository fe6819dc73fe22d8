import { createContext, RouterContextProvider } from "react-router";

/** The client's address as the server sees it (X-Forwarded-For only with TRUST_PROXY); null when unknown. */
export const clientIpContext = createContext<string | null>(null);

/** The per-request context server.ts hands to React Router. */
export function createLoadContext(clientIp: string | null): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(clientIpContext, clientIp);
  return context;
}
