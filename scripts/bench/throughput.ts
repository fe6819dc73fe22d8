import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { rawGet } from "./http.ts";
import { loadClient } from "./load-client.ts";
import { BASE_HEADERS, onCleanup, progress, RPS_CONNECTIONS, RPS_DURATION_S, stopChild } from "./run.ts";
import { int } from "./stats.ts";

// 2. Throughput

export type AutocannonResult = {
  requests: { average: number; total: number; stddev: number };
  latency: { p50: number; p90: number; p99: number; average: number; max: number };
  throughput: { average: number };
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  "2xx": number;
};
export type AutocannonOptions = {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  headers?: Record<string, string>;
};
export const autocannon = loadClient<AutocannonOptions, AutocannonResult>();

/** A bare node:http server in its own process (as the app runs in its own): one fixed response. */
const BARE_SERVER = `
import http from "node:http";
import { readFileSync } from "node:fs";
const body = readFileSync(process.env.BARE_BODY);
const headers = JSON.parse(readFileSync(process.env.BARE_HEADERS, "utf8"));
const server = http.createServer((req, res) => {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
process.on("SIGTERM", () => process.exit(0));
`;

export async function startBareServer(
  tmp: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const bodyFile = path.join(tmp, "bare-body.html");
  const headersFile = path.join(tmp, "bare-headers.json");
  writeFileSync(bodyFile, body);
  writeFileSync(headersFile, JSON.stringify(headers));
  const child = spawn(process.execPath, ["--input-type=module", "-e", BARE_SERVER], {
    env: { ...process.env, BARE_BODY: bodyFile, BARE_HEADERS: headersFile },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const unregister = onCleanup(`bare server (pid ${child.pid})`, () => stopChild(child, exited));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      out += chunk;
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve(Number(line));
    });
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      await stopChild(child, exited);
      unregister();
    },
  };
}

export const HOP_BY_HOP = new Set([
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
]);

export function summarise(result: AutocannonResult) {
  return {
    requestsPerSecond: Math.round(result.requests.average),
    totalRequests: result.requests.total,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      mean: Math.round(result.latency.average * 100) / 100,
      max: result.latency.max,
    },
    throughputBytesPerSecond: Math.round(result.throughput.average),
    ok2xx: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationS: Math.round(result.duration * 10) / 10,
  };
}

export async function throughput(tmp: string, baseUrl: string) {
  // The body the load test gets: a browser's request without Accept-Encoding, so neither server compresses.
  const sample = await rawGet(`${baseUrl}/`, BASE_HEADERS);
  if (sample.status !== 200) throw new Error(`GET / answered ${sample.status}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(sample.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const options = { connections: RPS_CONNECTIONS, duration: RPS_DURATION_S, headers: { ...BASE_HEADERS } };

  const run = async (url: string) => {
    await autocannon({ url, connections: 10, duration: 2, headers: options.headers }); // warm-up (JIT, caches)
    const t0 = performance.now();
    const result = summarise(await autocannon({ url, ...options }));
    return { ...result, wallS: Math.round((performance.now() - t0) / 100) / 10 };
  };
  progress(`autocannon GET / on the app: ${RPS_CONNECTIONS} connections, ${RPS_DURATION_S} s`);
  const app = await run(`${baseUrl}/`);

  const bare = await startBareServer(tmp, sample.decoded, headers);
  try {
    progress(`autocannon GET / on a bare node:http server with the same ${int(sample.decoded.length)} bytes`);
    const baseline = await run(bare.url);
    return {
      method: `autocannon ${RPS_CONNECTIONS} connections for ${RPS_DURATION_S} s (after a 2 s warm-up with 10), browser User-Agent, no Accept-Encoding (identity bodies); bare server: node:http in its own process answering every request with the app's body and headers`,
      bodyBytes: sample.decoded.length,
      headers: Object.keys(headers),
      app,
      bare: baseline,
      appShareOfBare: Math.round((app.requestsPerSecond / baseline.requestsPerSecond) * 1000) / 1000,
    };
  } finally {
    await bare.stop();
  }
}
