/**
 * The production server (`node server.ts`, embedded database) fits a learner's parameters after an import that brings
 * 10,000 reviews, in its worker thread: while the fit runs (its log read in pages, the optimizer in the worker), no
 * turn of its event loop is held for more than LOOP_BOUND_MS and a liveness probe answers throughout; the statistics
 * then show the fit. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPage, rawRequest, signInThroughLog } from "../support/raw-http.ts";
import { loopDuring, type LoopReport } from "../support/loop-watch.ts";
import { BROWSER_USER_AGENT, startServer, type ServerProcess } from "../support/server-process.ts";
import { asExport, syntheticHistory } from "../support/synthetic-reviews.ts";

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe("fitting on the running server", () => {
  it("imports 10,000 reviews and fits them in the background while the loop stays free", async () => {
    const { cookie } = await signInThroughLog(server, `fit-${process.pid}@example.test`);
    const post = (type: string, body: string) =>
      rawRequest(server, {
        method: "POST",
        path: "/account/import",
        headers: {
          "User-Agent": BROWSER_USER_AGENT,
          Origin: server.baseUrl,
          "Content-Type": type,
          Accept: "text/html",
          Cookie: cookie,
        },
        body,
      });
    const history = syntheticHistory({ total: 10_000 });
    const json = JSON.stringify(asExport(history, { language: "en" }));
    const boundary = "----fit";
    const uploaded = await post(
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="history.json"\r\n` +
        `Content-Type: application/json\r\n\r\n${json}\r\n--${boundary}--\r\n`,
    );
    expect(uploaded.status, uploaded.body.slice(0, 300)).toBe(303);
    const draft = new URL(String(uploaded.headers.location), server.baseUrl).searchParams.get("draft")!;

    const importing = await loopDuring(server, async () => {
      const confirmed = await post(
        "application/x-www-form-urlencoded",
        new URLSearchParams({ intent: "confirm", draft }).toString(),
      );
      expect(confirmed.status, confirmed.body.slice(0, 300)).toBeLessThan(400);
    });
    // The fit starts a few seconds after the import (SOON_MS), inside this window, and lands in the statistics.
    const report = await loopDuring(server, async () => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const page = await getPage(server, "/account/statistics", { Cookie: cookie });
        if (page.body.includes('class="fit-table"')) return page.body;
        if (Date.now() > deadline) throw new Error("no fit within a minute");
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });
    // The line is written a moment after the fit is stored (log lines go out in batches).
    const fit = (await server.waitForLog((line) => line.json?.message === "fsrs fit")).json;
    // The import's own turns are its business (ADR 034); reported here for comparison.
    const line = (what: string, r: LoopReport) =>
      `${what} on the server: ${r.wallMs.toFixed(0)} ms (${r.cpuMs.toFixed(0)} ms of server CPU, all threads); ` +
      `longest turn held ${r.heldMs} ms, longest delay ${r.delayMs} ms; ${r.probes.length} probes, slowest ` +
      `${Math.max(...r.probes).toFixed(0)} ms`;
    console.info(line("the import of 10,000 reviews", importing));
    console.info(line("from the import's end until the statistics show the fit", report));
    expect(report.blocked).toEqual([]);
    expect(report.probeFailures).toEqual([]);
    expect(report.probes.length).toBeGreaterThan(0);
    console.info(`the fit itself (read, worker, store): ${String(fit?.ms)} ms`);
    expect(fit?.fitted).toBe(true);
    expect(report.result).toContain("fitted to your own 10,000 reviews");
  }, 120_000);
});
