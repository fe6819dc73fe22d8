/**
 * Requests exactly as written, through node:http: paths the WHATWG URL parser would normalise (`/en/\x`, invalid
 * percent-encodings), any method, declared lengths that differ from the body sent. Used against `node server.ts`.
 */
import { Agent, request } from "node:http";
import type { ServerProcess } from "./server-process.ts";
import { BROWSER_USER_AGENT } from "./server-process.ts";

export type RawRequest = {
  method?: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Send the body in chunks without a Content-Length. */
  chunked?: boolean;
  /** Send only the headers (e.g. a large Content-Length) and wait for the answer without sending the body. */
  holdBody?: boolean;
  /** How long to wait for the answer (30 s unless said). */
  timeoutMs?: number;
};
export type RawResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

export function rawRequest(server: Pick<ServerProcess, "port">, options: RawRequest): Promise<RawResponse> {
  // Node frames a body of DELETE, OPTIONS or TRACE neither by length nor in chunks unless told: say it explicitly.
  const headers = { ...options.headers };
  if (options.body !== undefined && !options.holdBody) {
    if (options.chunked) headers["Transfer-Encoding"] = "chunked";
    else headers["Content-Length"] ??= String(Buffer.byteLength(options.body));
  }
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: server.port,
        method: options.method ?? "GET",
        path: options.path,
        headers,
        agent: options.holdBody ? false : agent,
        timeout: options.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
          if (options.holdBody) req.destroy();
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () =>
      req.destroy(
        new Error(
          `no answer to ${options.method ?? "GET"} ${options.path} within ${(options.timeoutMs ?? 30_000) / 1000} s`,
        ),
      ),
    );
    req.on("error", reject);
    if (options.holdBody) return void req.flushHeaders();
    if (options.body !== undefined) {
      if (options.chunked) {
        const body = Buffer.from(options.body);
        for (let offset = 0; offset < body.length; offset += 16 * 1024)
          req.write(body.subarray(offset, offset + 16 * 1024));
      } else req.write(options.body);
    }
    req.end();
  });
}

/** A browser's same-origin form POST. */
export function postForm(
  server: ServerProcess,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return rawRequest(server, {
    method: "POST",
    path,
    headers: {
      "User-Agent": BROWSER_USER_AGENT,
      Origin: server.baseUrl,
      "Content-Type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

export function getPage(
  server: ServerProcess,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return rawRequest(server, { path, headers: { "User-Agent": BROWSER_USER_AGENT, Accept: "text/html", ...headers } });
}

/** `name=value` pairs of the Set-Cookie headers of a response. */
export function cookiesOf(response: RawResponse): Map<string, string> {
  const set = response.headers["set-cookie"] ?? [];
  return new Map(
    (Array.isArray(set) ? set : [set]).map((line) => line.split(";", 1)[0]!.split(/=(.*)/s, 2) as [string, string]),
  );
}

/** The honeypot fields of the sign-in form as a browser would submit them. */
export async function honeypotFields(server: ServerProcess): Promise<Record<string, string>> {
  const { body } = await getPage(server, "/form");
  const from = body.match(/name="from__confirm" value="([^"]+)"/)?.[1];
  if (!from) throw new Error("no honeypot timestamp on /form");
  return {
    name__confirm: "",
    from__confirm: from
      .replace(/&#x27;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&"),
  };
}

/**
 * Signs in through the real flow on a server without SMTP_URL (the link is in its log): returns the session cookie
 * (`__session=...`) and the link's token.
 */
export async function signInThroughLog(
  server: ServerProcess,
  email: string,
): Promise<{ cookie: string; token: string }> {
  const fields = await honeypotFields(server);
  const started = server.logs().length;
  const sent = await postForm(server, "/form", { ...fields, email });
  if (sent.status !== 302) throw new Error(`sign-in request answered ${sent.status}`);
  const line = await server.waitForLog(
    (l) =>
      server.logs().indexOf(l) >= started &&
      l.json?.message === "sign-in link (no SMTP_URL configured)" &&
      l.json.to === email,
  );
  const link = new URL(String(line.json?.link));
  const token = link.searchParams.get("token")!;
  const confirmed = await postForm(server, link.pathname, { token });
  const session = cookiesOf(confirmed).get("__session");
  if (confirmed.status !== 302 || !session) throw new Error(`confirm answered ${confirmed.status} without a session`);
  return { cookie: `__session=${session}`, token };
}
