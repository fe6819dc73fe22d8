/**
 * SIGTERM while the production server is busy, as a container runtime stops it: the request in flight finishes with
 * its real answer, new connections are refused, nothing answers 5xx, and the process exits 0 well within Docker's
 * 10 s grace period.
 *
 * Needs `npm run build` (the test script builds first).
 */
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inputValue, visitor } from "../support/http-visitor.ts";
import { BROWSER_USER_AGENT, startServer, type ServerProcess } from "../support/server-process.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the error code of a new TCP connection to the port, or "connected". */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** GET on a connection of its own; resolves with the status once the whole body has arrived. */
function getStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers: { "User-Agent": BROWSER_USER_AGENT } }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("SIGTERM under load", () => {
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    // Debug logs say when the server has read a request's headers.
    server = await startServer({ env: { LOG_LEVEL: "debug" }, healthTimeoutMs: 80_000 });
  }, 90_000);

  afterAll(async () => {
    await server?.kill("SIGKILL");
  });

  it(
    "finishes the request in flight, refuses new connections, never answers 5xx and exits 0 within 8 s",
    { timeout: 60_000 },
    async () => {
      const target = server!;
      const page = await visitor(target.baseUrl).page("/form");
      const body = new URLSearchParams({
        email: "shutdown@example.test",
        name__confirm: inputValue(page.html, "name__confirm"),
        from__confirm: inputValue(page.html, "from__confirm"),
      }).toString();

      // Background load: eight clients asking for pages one after another until the server is gone. Each request on
      // a new connection: a keep-alive connection closed by the server while a request is on its way is a race HTTP
      // clients handle by retrying, not something a server can prevent.
      const statuses: number[] = [];
      const failures: string[] = [];
      const load = { running: true };
      const paths = ["/", "/explore", "/form", "/de/explore", "/company/privacy"];
      const clients = Array.from({ length: 8 }, async (_, client) => {
        for (let i = client; load.running; i++) {
          try {
            statuses.push(await getStatus(target.baseUrl + paths[i % paths.length]));
          } catch (error) {
            failures.push((error as NodeJS.ErrnoException).code ?? String(error));
            await sleep(20);
          }
        }
      });
      // Until the load is answered.
      await vi.waitFor(() => expect(statuses.length).toBeGreaterThanOrEqual(paths.length), { timeout: 15_000 });

      // A form post whose body is still on its way when SIGTERM arrives.
      let finishBody = () => {};
      const slowPost = new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
        const req = httpRequest(`${target.baseUrl}/form`, {
          method: "POST",
          agent: false,
          headers: {
            "User-Agent": BROWSER_USER_AGENT,
            Origin: target.baseUrl,
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": Buffer.byteLength(body),
          },
        });
        req.on("response", (response) => {
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode ?? 0, location: response.headers.location }));
        });
        req.on("error", reject);
        req.write(body.slice(0, 10));
        finishBody = () => req.end(body.slice(10));
      });
      // The server has read its headers and is waiting for the rest of the body before it admits the request
      // (decision 093): a request in flight.
      await target.waitForLog((line) => line.json?.message === "body awaited" && line.json.method === "POST", 10_000);

      const stopping = Date.now();
      const exitCode = target.stop();
      await target.waitForLog((line) => line.json?.message === "stopping", 5_000);
      expect(await tryConnect(target.port)).toBe("ECONNREFUSED");
      finishBody();

      expect(await slowPost).toEqual({ status: 302, location: "/form" });
      expect(await exitCode).toBe(0);
      const elapsed = Date.now() - stopping;
      load.running = false;
      await Promise.all(clients);

      expect(elapsed).toBeLessThan(8_000);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
      // Every request the server took on was answered in full: as many answers arrived as the server logged (the
      // page read before the load and the slow post aside). Connections that were still waiting in the kernel's
      // queue when the server stopped listening are reset before any request was read, later ones are refused.
      const served =
        target
          .logs()
          .filter(
            (line) =>
              line.json?.message === "request" &&
              line.json.method === "GET" &&
              !["/healthz", "/readyz"].includes(line.json.path as string),
          ).length - 1;
      expect(statuses.length).toBe(served);
      expect(failures.filter((code) => code !== "ECONNREFUSED" && code !== "ECONNRESET")).toEqual([]);
      expect(target.logs().some((line) => line.json?.message === "stopped")).toBe(true);
    },
  );
});
