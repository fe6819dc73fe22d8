/**
 * A hard kill (`kill -9`, an out-of-memory kill) of the server on an embedded database, then a restart on the same
 * DATA_DIR, as a container restarts on its volume: it starts at once and everything written before is still there.
 * A lock left by a process of another container (PID 1 on another hostname) does not keep it from starting either.
 *
 * Needs `npm run build` (the test script builds first).
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../support/temp.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailSink, signInLink } from "../support/mail-sink.ts";
import { startServer, type ServerProcess } from "../support/server-process.ts";
import { visitor } from "../support/http-visitor.ts";

const EMAIL = "restart@example.test";

describe("PGlite server restarted after kill -9 on the same DATA_DIR", () => {
  let dataDir: string;
  let mail: Awaited<ReturnType<typeof startMailSink>>;
  const servers: ServerProcess[] = [];
  const start = async () => {
    const server = await startServer({ env: { DATA_DIR: dataDir, SMTP_URL: mail.url }, healthTimeoutMs: 80_000 });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    dataDir = tempDir("restart");
    mail = await startMailSink();
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill("SIGKILL")));
    await mail?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts again after kill -9 with the session and the term written before", { timeout: 180_000 }, async () => {
    const first = await start();
    const learner = visitor(first.baseUrl);
    const asked = Date.now();
    expect((await learner.requestSignIn(EMAIL)).status).toBe(302);
    const confirmed = await learner.confirm(signInLink(await mail.waitFor(EMAIL, asked)));
    expect(confirmed.headers.get("Location")).toBe("/account/home");
    const created = await learner.request("/account/terms/new", {
      form: { text: "Beständigkeit", meaning: "persistence", partOfSpeech: "noun" },
    });
    expect(created.status).toBe(302);
    const termPath = created.headers.get("Location") ?? "";
    expect(termPath).toMatch(/^\/account\/terms\/[0-9a-f-]{36}$/);

    expect(await first.kill("SIGKILL")).toBeNull();

    const started = Date.now();
    const second = await start();
    const restartMs = Date.now() - started;
    const again = visitor(second.baseUrl);
    for (const [name, value] of learner.jar) again.jar.set(name, value);
    const home = await again.page("/account/home");
    expect(home.response.status).toBe(200);
    expect(home.html).toContain(EMAIL);
    const term = await again.page(termPath);
    expect(term.response.status).toBe(200);
    expect(term.html).toContain("Beständigkeit");
    // A reopen takes about a second; a restart that waited for a stale lock to expire would take far longer.
    expect(restartMs).toBeLessThan(30_000);
    expect(await second.stop()).toBe(0);
  });

  it("starts on a directory whose lock was left by PID 1 of another container", { timeout: 120_000 }, async () => {
    writeFileSync(path.join(dataDir, "polyglot.lock"), JSON.stringify({ pid: 1, host: "0123456789ab" }));
    const server = await start();
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
  });
});
