/**
 * A small reverse proxy on loopback, in front of several server instances as the proxy of compose.yaml is: round
 * robin over the upstreams, one at a time per request, keeping the Host header and appending the client's address to
 * X-Forwarded-For (with X-Forwarded-Proto), so the app must be started with TRUST_PROXY=1. It records which upstream
 * answered each request.
 */
import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export type Served = { method: string; path: string; upstream: string; status: number };

export async function startReverseProxy() {
  const upstreams: string[] = [];
  const served: Served[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    if (upstreams.length === 0) {
      res.writeHead(502).end("no upstream");
      return;
    }
    const upstream = upstreams[next++ % upstreams.length]!;
    const client = req.socket.remoteAddress ?? "";
    const headers: IncomingHttpHeaders = { ...req.headers, "x-forwarded-proto": "http" };
    headers["x-forwarded-for"] = req.headers["x-forwarded-for"]
      ? `${String(req.headers["x-forwarded-for"])}, ${client}`
      : client;
    const forward = request(
      new URL(req.url ?? "/", upstream),
      { method: req.method, headers, agent: false },
      (answer) => {
        served.push({
          method: req.method ?? "",
          path: (req.url ?? "").split("?")[0] ?? "",
          upstream,
          status: answer.statusCode ?? 0,
        });
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    forward.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    /** Base URLs of the instances, in the order they take turns. */
    upstreams,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
