/**
 * autocannon, the load client of every benchmark, without the one cost per response that is not HTTP: autocannon keeps
 * each response's body as a string (`req.body += chunk`, mcollina/autocannon#362, still so in 9.0), which only its
 * `onResponse`, `expectBody` and `verifyBody` options read, and no run here uses them. Decoding a compressed body as
 * UTF-8, chunk by chunk, made the client the limit rather than the server: a bare node:http server answering 12 KB of
 * brotli measured ~4,000-5,000 req/s with it and ~40,000 without (tests/integration/load-client.test.ts keeps it so).
 * Bytes are still counted (`addByteCount`), so throughput in bytes is unchanged.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const PipelinedRequestsQueue = require("autocannon/lib/pipelinedRequestsQueue.js") as {
  prototype: { addBody(data: Buffer): void };
};
PipelinedRequestsQueue.prototype.addBody = () => {};

/** autocannon as the benchmarks call it; each caller states the part of the result it reads. */
export function loadClient<Options extends object, Result>(): (options: Options) => Promise<Result> {
  return require("autocannon") as (options: Options) => Promise<Result>;
}
