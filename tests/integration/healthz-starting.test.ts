/**
 * `/healthz` answers 503 until the app has started once (its database open, the shipped data loaded): a proxy that
 * checks it sends no visitor to an instance that is still starting, which has nothing to answer from memory should the
 * database go away before it is ready. Here the database never answers (a port that accepts connections and says
 * nothing): the instance listens, answers 503 "starting", and stops when the connection's deadline passes.
 *
 * Needs `npm run build` (the test script builds first).
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type ServerProcess } from "../support/server-process.ts";

describe("an instance whose database does not answer yet", () => {
  let silent: Server;
  const sockets: Socket[] = [];
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await server?.kill("SIGKILL");
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it("answers /healthz 503 while it starts, and stops when the database cannot be reached", async () => {
    const address = silent.address();
    const port = typeof address === "object" && address ? address.port : 0;
    server = await startServer({
      env: { DATABASE_URL: `postgres://polyglot@127.0.0.1:${port}/polyglot` },
      waitForHealthy: false,
    });
    await server.waitForLog((line) => line.json?.message === "listening");
    const health = await fetch(`${server.baseUrl}/healthz`);
    expect(health.status).toBe(503);
    expect(health.headers.get("cache-control")).toBe("no-store");
    expect(await health.text()).toBe("starting");
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(503);
    expect(await server.exited).toBe(1);
    expect(server.logs().some((line) => line.json?.message === "cannot start")).toBe(true);
  }, 30_000);
});
