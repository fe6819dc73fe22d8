/**
 * The bound on requests in flight, on a real HTTP server: WORKING_AT_ONCE requests are worked on, the next ones wait
 * their turn first come, first served, and a request is refused with 503 at once when the bound is reached, when the
 * queue stands (its oldest waited QUEUE_TARGET_MS), or when it waited QUEUE_MAX_WAIT_MS by its turn; a request whose
 * client left while waiting is never started.
 */
import { createServer, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  CLIENT_SHARE,
  loadShedder,
  QUEUE_MAX_WAIT_MS,
  QUEUE_TARGET_MS,
  UPLOADS_AT_ONCE,
  WORKING_AT_ONCE,
  type LoadShedder,
} from "../../app/edge/load-shedding.server";

type Harness = {
  shedder: LoadShedder;
  /** Paths started, in order. */
  started: string[];
  /** Ends the answer of a started request. */
  finish: (path: string) => void;
  /** Sends a GET (as `client`, an upload when said); resolves with its status and how long it took. */
  get: (
    path: string,
    asker?: { client?: string; upload?: boolean },
  ) => { answer: Promise<{ status: number; ms: number }>; abort: () => void };
  until: (check: () => boolean) => Promise<void>;
};

let server: Server | undefined;
afterEach(async () => {
  vi.useRealTimers();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
  server = undefined;
});

async function harness(limit: number): Promise<Harness> {
  const shedder = loadShedder(limit);
  const started: string[] = [];
  const open = new Map<string, ServerResponse>();
  server = createServer((req, res) =>
    shedder.admit(
      req,
      res,
      () => res.setHeader("X-Before-Answer", "yes"),
      () => {
        started.push(req.url!);
        open.set(req.url!, res);
      },
      { client: String(req.headers["x-client"] ?? ""), upload: req.headers["x-upload"] === "1" },
    ),
  );
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    shedder,
    started,
    finish: (path) => open.get(path)!.end("ok"),
    get(path, asker = {}) {
      const at = performance.now();
      const headers = { "X-Client": asker.client ?? "", "X-Upload": asker.upload ? "1" : "0" };
      const req = request({ port, host: "127.0.0.1", path, agent: false, headers });
      const answer = new Promise<{ status: number; ms: number }>((resolve, reject) => {
        req.once("response", (res) => {
          res.resume();
          res.once("end", () => resolve({ status: res.statusCode!, ms: performance.now() - at }));
        });
        req.once("error", reject);
      });
      req.end();
      // Requests still open when a test ends are cut by the server's close.
      answer.catch(() => {});
      return { answer, abort: () => req.destroy() };
    },
    async until(check) {
      for (let i = 0; i < 200 && !check(); i++) await sleep(10);
      expect(check()).toBe(true);
    },
  };
}

describe("load shedding", () => {
  it("works on a few requests at once and starts the waiting ones first come, first served", async () => {
    const h = await harness(WORKING_AT_ONCE + 2);
    const working = Array.from({ length: WORKING_AT_ONCE }, (_, i) => h.get(`/working-${i}`));
    await h.until(() => h.started.length === WORKING_AT_ONCE);
    const first = h.get("/first");
    await h.until(() => h.shedder.inFlight === WORKING_AT_ONCE + 1);
    const second = h.get("/second");
    await h.until(() => h.shedder.inFlight === WORKING_AT_ONCE + 2);
    // The bound is reached: the next one is refused at once, with the headers every answer carries.
    const refused = await h.get("/third").answer;
    expect(refused.status).toBe(503);
    expect(h.shedder.takeRefused()).toBe(1);

    h.finish("/working-0");
    await h.until(() => h.started.includes("/first"));
    expect(h.started).not.toContain("/second");
    h.finish("/working-1");
    await h.until(() => h.started.includes("/second"));
    expect(h.started.slice(WORKING_AT_ONCE)).toEqual(["/first", "/second"]);
    for (const path of h.started.slice(2)) h.finish(path);
    for (const { answer } of [...working, first, second]) expect((await answer).status).toBe(200);
    expect(h.shedder.inFlight).toBe(0);
  });

  it("refuses a newcomer at once while the queue stands, and a request that waited too long when its turn comes", async () => {
    // The shedder's clock and timers are the test's: its waits pass at once (the sockets and `until` keep real time).
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const h = await harness(1_000);
    for (let i = 0; i < WORKING_AT_ONCE; i++) h.get(`/working-${i}`);
    await h.until(() => h.started.length === WORKING_AT_ONCE);
    const waiting = h.get("/waiting");
    await h.until(() => h.shedder.inFlight === WORKING_AT_ONCE + 1);
    vi.advanceTimersByTime(QUEUE_TARGET_MS + 50);
    // The oldest waiting request waited past the target: the newcomer does not join the queue.
    const newcomer = await h.get("/newcomer").answer;
    expect(newcomer.status).toBe(503);
    expect(newcomer.ms).toBeLessThan(QUEUE_TARGET_MS);

    vi.advanceTimersByTime(QUEUE_MAX_WAIT_MS - QUEUE_TARGET_MS);
    h.finish("/working-0");
    // Its turn came too late to be answered in time: refused instead of started.
    expect((await waiting.answer).status).toBe(503);
    expect(h.started).not.toContain("/waiting");
    expect(h.shedder.takeRefused()).toBe(2);
  });

  it("never starts a request whose client left while it waited", async () => {
    const h = await harness(1_000);
    for (let i = 0; i < WORKING_AT_ONCE; i++) h.get(`/working-${i}`);
    await h.until(() => h.started.length === WORKING_AT_ONCE);
    const gone = h.get("/gone");
    const next = h.get("/next");
    await h.until(() => h.shedder.inFlight === WORKING_AT_ONCE + 2);
    gone.abort();
    await h.until(() => h.shedder.inFlight === WORKING_AT_ONCE + 1);
    h.finish("/working-0");
    await h.until(() => h.started.includes("/next"));
    expect(h.started).not.toContain("/gone");
    h.finish("/next");
    expect((await next.answer).status).toBe(200);
  });

  it("never holds health checks and files", async () => {
    const h = await harness(1);
    h.get("/page");
    await h.until(() => h.started.length === 1);
    const health = h.get("/healthz");
    const file = h.get("/favicon.ico");
    await h.until(() => h.started.length === 3);
    h.finish("/healthz");
    h.finish("/favicon.ico");
    expect((await health.answer).status).toBe(200);
    expect((await file.answer).status).toBe(200);
    expect((await h.get("/other").answer).status).toBe(503);
  });

  it("refuses a waiting request once it waited QUEUE_MAX_WAIT_MS, though no slot frees meanwhile", async () => {
    const h = await harness(1_000);
    for (let i = 0; i < WORKING_AT_ONCE; i++) h.get(`/working-${i}`);
    await h.until(() => h.started.length === WORKING_AT_ONCE);
    const waiting = await h.get("/waiting").answer;
    expect(waiting.status).toBe(503);
    expect(waiting.ms).toBeGreaterThanOrEqual(QUEUE_MAX_WAIT_MS - 10);
    expect(waiting.ms).toBeLessThan(QUEUE_MAX_WAIT_MS * 2);
    expect(h.started).not.toContain("/waiting");
  });

  it("starts another client's waiting request before one of a client holding more than its share", async () => {
    const h = await harness(1_000);
    // Alone, a client may take every slot.
    for (let i = 0; i < WORKING_AT_ONCE; i++) h.get(`/a-${i}`, { client: "a" });
    await h.until(() => h.started.length === WORKING_AT_ONCE);
    const more = h.get("/a-more", { client: "a" });
    await h.until(() => h.shedder.inFlight === WORKING_AT_ONCE + 1);
    const other = h.get("/b", { client: "b" });
    await h.until(() => h.shedder.inFlight === WORKING_AT_ONCE + 2);
    h.finish("/a-0");
    await h.until(() => h.started.includes("/b"));
    expect(h.started).not.toContain("/a-more");
    // Once under its share, the client's own waiting request starts in its turn.
    for (let i = 1; i <= WORKING_AT_ONCE - CLIENT_SHARE; i++) h.finish(`/a-${i}`);
    await h.until(() => h.started.includes("/a-more"));
    for (const path of h.started.filter((begun) => !/^\/a-[0-4]$/.test(begun))) h.finish(path);
    expect((await other.answer).status).toBe(200);
    expect((await more.answer).status).toBe(200);
  });

  it("gives uploads UPLOADS_AT_ONCE working slots at most: a form after them starts at once", async () => {
    const h = await harness(1_000);
    for (let i = 0; i < UPLOADS_AT_ONCE + 1; i++) h.get(`/upload-${i}`, { client: `u${i}`, upload: true });
    await h.until(() => h.shedder.inFlight === UPLOADS_AT_ONCE + 1);
    h.get("/form", { client: "f" });
    await h.until(() => h.started.includes("/form"));
    expect(h.started).not.toContain(`/upload-${UPLOADS_AT_ONCE}`);
    h.finish("/upload-0");
    await h.until(() => h.started.includes(`/upload-${UPLOADS_AT_ONCE}`));
  });
});
