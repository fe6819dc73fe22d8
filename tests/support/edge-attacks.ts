/**
 * The attacks of issue 51 on the edge, shared by the tests (tests/integration/edge-attacks.test.ts) and
 * `npm run attack-figures`: slow request bodies that would hold the working slots, one learner's large kept pages, and
 * one learner's many term pages. Each runs against the production server (`node server.ts`).
 */
import { connect, type Socket } from "node:net";
import { cookiesOf, getPage, rawRequest, signInThroughLog, type RawResponse } from "./raw-http.ts";
import { BROWSER_USER_AGENT, type ServerProcess } from "./server-process.ts";

/** A slow body's answer: its status (0 when the connection closed without one) and how long after its headers. */
export type SlowAnswer = { status: number; ms: number };

/**
 * `count` connections that each POST a form to `path` announcing `length` bytes and send one byte a second
 * (no account needed). `answers` resolve as each is answered or closed; `stop` closes them all.
 */
export function slowBodies(server: ServerProcess, count: number, path = "/form", length = 60_000) {
  const sockets: Socket[] = [];
  const answers = Array.from({ length: count }, () => {
    const socket = connect(server.port, "127.0.0.1");
    sockets.push(socket);
    socket.on("error", () => {});
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    socket.once("connect", () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: ${server.baseUrl}\r\n` +
          `User-Agent: ${BROWSER_USER_AGENT}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
          `Content-Length: ${length}\r\n\r\ne`,
      );
      timer = setInterval(() => socket.write("e"), 1_000);
    });
    return new Promise<SlowAnswer>((resolve) => {
      let head = "";
      const done = (status: number) => {
        clearInterval(timer);
        resolve({ status, ms: performance.now() - started });
      };
      socket.on("data", (chunk: Buffer) => {
        head += chunk.toString("latin1");
        const status = head.match(/^HTTP\/1\.1 (\d{3})/)?.[1];
        if (status) {
          done(Number(status));
          socket.destroy();
        }
      });
      socket.once("close", () => done(0));
    });
  });
  return { answers, stop: () => sockets.forEach((socket) => socket.destroy()) };
}

/** A learner signed in through the real flow, with the cookies their first page sets (as a browser sends them). */
export async function learner(server: ServerProcess, email: string): Promise<string> {
  const { cookie } = await signInThroughLog(server, email);
  const first = await getPage(server, "/account/home", { Cookie: cookie });
  return [cookie, ...[...cookiesOf(first)].map(([name, value]) => `${name}=${value}`)].join("; ");
}

/** A page answered from memory carries script hashes in its CSP instead of a per-response nonce. */
export const fromMemory = (response: RawResponse) =>
  String(response.headers["content-security-policy"]).includes("'sha256-");

/** Asks for a page until it is answered from memory (caching it takes a moment after the answer that drew it). */
export async function cachedPage(server: ServerProcess, target: string, cookie: string): Promise<boolean> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const response = await getPage(server, target, { Cookie: cookie });
    if (response.status !== 200) throw new Error(`${target} answered ${response.status}`);
    if (fromMemory(response)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

const post = (server: ServerProcess, target: string, cookie: string, type: string, body: string) =>
  rawRequest(server, {
    method: "POST",
    path: target,
    headers: { "User-Agent": BROWSER_USER_AGENT, Origin: server.baseUrl, "Content-Type": type, Cookie: cookie },
    body,
  });

/**
 * Uploads a CSV whose header names 22 more columns of 19,000 characters each (under the import's limit of a cell) to
 * the import and opens its preview: the address of the preview and its size in bytes.
 */
export async function largePreview(server: ServerProcess, cookie: string, seed: number) {
  const long = (i: number) => `column ${seed} ${i} `.padEnd(19_000, "x");
  const header = ["term", "meaning", ...Array.from({ length: 22 }, (_, i) => long(i))].join(",");
  const rows = Array.from({ length: 5 }, (_, i) => [`t${seed}x${i}`, "m", ...Array(22).fill("c")].join(","));
  const boundary = "----attack";
  const uploaded = await post(
    server,
    "/account/import",
    cookie,
    `multipart/form-data; boundary=${boundary}`,
    `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\n${header}\n${rows.join("\n")}\r\n--${boundary}--\r\n`,
  );
  if (uploaded.status !== 303) throw new Error(`upload answered ${uploaded.status}`);
  const location = String(uploaded.headers.location);
  const preview = await getPage(server, location, { Cookie: cookie });
  if (preview.status !== 200) throw new Error(`preview answered ${preview.status}`);
  return { location, bytes: Buffer.byteLength(preview.body) };
}

/** Adds a term through its form; the address of its page. */
export async function newTerm(server: ServerProcess, cookie: string, text: string): Promise<string> {
  const body = new URLSearchParams({ text, meaning: "m", partOfSpeech: "noun" }).toString();
  const term = await post(server, "/account/terms/new", cookie, "application/x-www-form-urlencoded", body);
  if (term.status !== 302) throw new Error(`new term answered ${term.status}`);
  return new URL(String(term.headers.location), server.baseUrl).pathname;
}
