import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadClient } from "../../scripts/bench/load-client.ts";

// The benchmarks' load client must count every response and its bytes without keeping its body: decoding compressed
// bodies as text made the client, not the server under test, the limit of a run.
describe("the benchmarks' load client", () => {
  const body = randomBytes(16 * 1024); // as binary as a brotli page
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((_request, response) => {
      response.setHeader("content-encoding", "br");
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("keeps no response body", () => {
    const Queue = createRequire(import.meta.url)("autocannon/lib/pipelinedRequestsQueue.js") as new () => {
      insertRequest(request: object): void;
      addBody(data: Buffer): void;
      addByteCount(count: number): void;
      peek(): { body: string; bytes: number };
    };
    const queue = new Queue();
    queue.insertRequest({});
    queue.addBody(body);
    queue.addByteCount(body.length);
    expect(queue.peek()).toMatchObject({ body: "", bytes: body.length });
  });

  it("still counts every response and its bytes", async () => {
    const run = loadClient<
      object,
      { requests: { total: number }; throughput: { total: number }; non2xx: number; errors: number }
    >();
    const result = await run({ url, connections: 4, amount: 200 });
    expect(result.requests.total).toBe(200);
    expect(result.non2xx + result.errors).toBe(0);
    expect(result.throughput.total).toBeGreaterThanOrEqual(200 * body.length);
  });
});
