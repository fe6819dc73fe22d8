/**
 * The embedded database's directory (DATA_DIR) read-only or full, as a broken volume would be: the server refuses to
 * start with a message naming the directory and the problem; a disk that fills up while it runs makes writes fail
 * with a translated 503 page (never 500), keeps everything written before, and the server works again once there is
 * space, also after a restart.
 *
 * Real file systems: small tmpfs mounts. Tests run as root, which ignores permission bits, so read-only is a
 * read-only mount, not chmod. Where mounting is not allowed (an unprivileged container), the suite is skipped and says
 * so. Needs `npm run build` (the test script builds first).
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../support/temp.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailSink, signInLink } from "../support/mail-sink.ts";
import { startServer, type ServerProcess } from "../support/server-process.ts";
import { visitor } from "../support/http-visitor.ts";

const mounts: string[] = [];

/** A tmpfs of `size` at a new temporary directory, or null when this machine does not allow mounting. */
function mountTmpfs(size: string): string | null {
  const dir = tempDir("fs");
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0755`, "tmpfs", dir], { stdio: "pipe" });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  mounts.push(dir);
  return dir;
}

function unmountAll() {
  for (const dir of mounts.splice(0)) {
    try {
      execFileSync("umount", ["-l", dir], { stdio: "pipe" });
    } catch {
      // already unmounted
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes zeros into `file` until the file system is full. */
function fillUp(file: string) {
  const fd = openSync(file, "w");
  const chunk = Buffer.alloc(1024 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
}

const canMount = (() => {
  const probe = mountTmpfs("1m");
  unmountAll();
  return probe !== null;
})();

async function startFailure(dataDir: string): Promise<string> {
  const server = await startServer({ env: { DATA_DIR: dataDir }, waitForHealthy: false });
  const code = await Promise.race([
    server.exited,
    new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 20_000)),
  ]);
  if (code === "running") await server.kill("SIGKILL");
  expect(code).toBe(1);
  const line = await server.waitForLog((entry) => entry.json?.message === "cannot start", 1_000);
  return String(line.json?.error);
}

describe.skipIf(!canMount)("DATA_DIR read-only or full", () => {
  afterAll(() => unmountAll());

  it(
    "refuses to start on a read-only DATA_DIR, naming the directory and the problem",
    { timeout: 40_000 },
    async () => {
      const mount = mountTmpfs("64m")!;
      mkdirSync(path.join(mount, "existing"));
      execFileSync("mount", ["-o", "remount,ro", mount]);
      expect(await startFailure(path.join(mount, "existing"))).toContain(
        `DATA_DIR ${path.join(mount, "existing")} is on a read-only file system (EROFS)`,
      );
      expect(await startFailure(path.join(mount, "new"))).toContain(
        `DATA_DIR ${path.join(mount, "new")} is on a read-only file system (EROFS)`,
      );
    },
  );

  it("refuses to start on a full DATA_DIR, naming the directory and the problem", { timeout: 40_000 }, async () => {
    const mount = mountTmpfs("64m")!;
    fillUp(path.join(mount, "filler"));
    expect(await startFailure(mount)).toContain(`DATA_DIR ${mount} has no free space left (ENOSPC)`);
  });

  describe("a disk that fills up while the server runs", () => {
    let mount: string;
    let mail: Awaited<ReturnType<typeof startMailSink>>;
    const servers: ServerProcess[] = [];

    beforeAll(async () => {
      mount = mountTmpfs("160m")!;
      mail = await startMailSink();
    });
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.kill("SIGKILL")));
      await mail?.close();
    });

    it(
      "answers writes with 503, keeps earlier data and works again once there is space",
      { timeout: 180_000 },
      async () => {
        const start = async () => {
          const server = await startServer({ env: { DATA_DIR: mount, SMTP_URL: mail.url }, healthTimeoutMs: 80_000 });
          servers.push(server);
          return server;
        };
        const server = await start();
        const learner = visitor(server.baseUrl);
        const asked = Date.now();
        await learner.requestSignIn("full.disk@example.test");
        await learner.confirm(signInLink(await mail.waitFor("full.disk@example.test", asked)));
        // Past My home's welcome, to the dashboard that lists the terms.
        await learner.request("/account/home", { form: { intent: "skip" } });
        const addTerm = (text: string) =>
          learner.request("/account/terms/new", {
            form: { text, partOfSpeech: "noun", sentence: `Ein Satz mit ${text}.` },
          });
        const before = await addTerm("Zuvorgespeichert");
        expect(before.status).toBe(302);
        const termPath = before.headers.get("Location")!;

        const filler = path.join(mount, "filler");
        fillUp(filler);
        // A passed health check is trusted for a second before writes check again.
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        const refused = await addTerm("Plattevoll");
        expect(refused.status).toBe(503);
        expect(refused.headers.get("Retry-After")).toBe("10");
        const html = await refused.text();
        expect(html).toContain("Service temporarily unavailable");
        // Not ready (the database cannot write), yet alive: the proxy keeps sending it requests to answer with 503.
        expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(503);
        expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);

        rmSync(filler);
        await server.waitForHealthy(20_000);
        const page = await learner.page(termPath);
        expect(page.response.status).toBe(200);
        expect(page.html).toContain("Zuvorgespeichert");
        expect((await addTerm("Danachgespeichert")).status).toBe(302);

        expect(await server.stop()).toBe(0);
        const restarted = await start();
        const again = visitor(restarted.baseUrl);
        for (const [name, value] of learner.jar) again.jar.set(name, value);
        const home = await again.page("/account/home");
        expect(home.html).toContain("Zuvorgespeichert");
        expect(home.html).toContain("Danachgespeichert");
        expect(home.html).not.toContain("Plattevoll");
      },
    );
  });
});
