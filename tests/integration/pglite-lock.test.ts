/**
 * The embedded database (PGlite in DATA_DIR) belongs to one process: a second server started on the same directory
 * must stop at once and say why, and must not disturb the one that owns it. The restart after a hard kill is in
 * pglite-restart.test.ts.
 *
 * Needs `npm run build` (the test script builds first).
 */
import { existsSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type ServerProcess } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

/** What the owner of a DATA_DIR says on its lock socket; null when nobody listens. */
function lockHolder(dataDir: string): Promise<{ pid?: number; host?: string } | null> {
  return new Promise((resolve) => {
    let text = "";
    const socket = createConnection(path.join(dataDir, "polyglot.lock"));
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => resolve(JSON.parse(text)));
    socket.on("error", () => resolve(null));
  });
}

/** How long the second process may take to give up: Node's start and the import of the build, then the lock check. */
const FAIL_FAST_MS = 10_000;

describe("PGlite DATA_DIR lock", () => {
  let dataDir: string;
  let first: ServerProcess | undefined;

  beforeAll(async () => {
    dataDir = tempDir("lock");
    // PGlite's first open of a new directory (initdb and migrations) takes several seconds.
    first = await startServer({ env: { DATA_DIR: dataDir }, healthTimeoutMs: 80_000 });
  }, 90_000);

  afterAll(async () => {
    await first?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("a second server on the same DATA_DIR exits non-zero within seconds, naming the directory and its owner", async () => {
    const owner = first;
    if (!owner) throw new Error("the first server did not start");
    const started = Date.now();
    const second = await startServer({ env: { DATA_DIR: dataDir }, waitForHealthy: false });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"still running">(
      (resolve) => (timer = setTimeout(() => resolve("still running"), FAIL_FAST_MS)),
    );
    const outcome = await Promise.race([second.exited, timeout]);
    clearTimeout(timer);
    const elapsed = Date.now() - started;
    if (outcome === "still running") await second.stop();

    expect(outcome, `second process after ${elapsed} ms`).not.toBe("still running");
    expect(outcome).not.toBe(0);
    expect(outcome).not.toBeNull();
    const failure = second.logs().find((line) => line.json?.message === "cannot start");
    expect(
      failure,
      second
        .logs()
        .map((line) => line.text)
        .join("\n"),
    ).toBeDefined();
    expect(failure?.stream).toBe("stderr");
    const message = String(failure?.json?.error);
    expect(message).toContain(`DATA_DIR ${path.resolve(dataDir)}`);
    expect(message).toContain("is in use");
    expect(message).toContain(`process ${owner.pid}`);
    // It never announced a ready database.
    expect(second.logs().some((line) => line.json?.message === "database ready")).toBe(false);
  });

  it("the first server keeps serving /healthz 200 and keeps its lock", async () => {
    const owner = first;
    if (!owner) throw new Error("the first server did not start");
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${owner.baseUrl}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("ok");
    }
    // The lock is a socket the owner listens on; whoever connects is told who holds it.
    expect((await lockHolder(dataDir))?.pid).toBe(owner.pid);
  });

  it("SIGTERM stops the first server with exit code 0 and releases the lock", async () => {
    const owner = first;
    if (!owner) throw new Error("the first server did not start");
    expect(await owner.stop()).toBe(0);
    expect(existsSync(path.join(dataDir, "polyglot.lock"))).toBe(false);
  });
});
