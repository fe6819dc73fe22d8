/**
 * Two production server processes on one PostgreSQL database, as behind a load balancer: a sign-in link requested
 * on one instance works on the other, sessions and used links are shared, and so is the rate limit.
 *
 * Needs `npm run build` (the test script builds first) and the PostgreSQL server of tests/support/pg-global-setup.ts.
 */
import { createHash } from "node:crypto";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { BROWSER_USER_AGENT, startServer, type LogLine, type ServerProcess } from "../support/server-process.ts";

const EMAIL = "two.instances@example.test";
const LINK_LOGGED = "sign-in link (no SMTP_URL configured)";

let databaseUrl: string;
let a: ServerProcess | undefined;
let b: ServerProcess | undefined;

const decodeHtml = (text: string) =>
  text.replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);/gi, (whole, entity: string) => {
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    if (entity[0] !== "#") return named[entity.toLowerCase()] ?? whole;
    return String.fromCodePoint(
      entity[1]?.toLowerCase() === "x" ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)),
    );
  });

/** The value attribute of the <input name="..."> in a page, as a browser would submit it. */
function inputValue(html: string, name: string): string {
  const tag = html.match(new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`))?.[0];
  if (!tag) throw new Error(`no <input name="${name}"> in the page`);
  return decodeHtml(tag.match(/\bvalue="([^"]*)"/)?.[1] ?? "");
}

/** `name=value` of a Set-Cookie header of the response, or undefined. */
function setCookie(response: Response, name: string): string | undefined {
  return response.headers
    .getSetCookie()
    .map((header) => header.split(";", 1)[0] ?? "")
    .find((pair) => pair.startsWith(`${name}=`));
}

function get(server: ServerProcess, pathAndQuery: string, cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { "User-Agent": BROWSER_USER_AGENT, Accept: "text/html" };
  if (cookie) headers.Cookie = cookie;
  return fetch(new URL(pathAndQuery, server.baseUrl), { headers, redirect: "manual" });
}

/** A form POST as the browser sends it from a page of that server (same-origin Origin header). */
function post(
  server: ServerProcess,
  pathAndQuery: string,
  fields: Record<string, string>,
  cookie?: string,
): Promise<Response> {
  const headers: Record<string, string> = {
    "User-Agent": BROWSER_USER_AGENT,
    Accept: "text/html",
    Origin: server.baseUrl,
    "Content-Type": "application/x-www-form-urlencoded",
  };
  if (cookie) headers.Cookie = cookie;
  return fetch(new URL(pathAndQuery, server.baseUrl), {
    method: "POST",
    headers,
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/** Opens /form like a browser and submits the e-mail form with the honeypot fields the page carries. */
async function requestSignInLink(server: ServerProcess, email: string): Promise<Response> {
  const page = await get(server, "/form");
  expect(page.status).toBe(200);
  const html = await page.text();
  const honeypot = {
    name__confirm: inputValue(html, "name__confirm"),
    from__confirm: inputValue(html, "from__confirm"),
  };
  expect(honeypot.name__confirm).toBe("");
  expect(honeypot.from__confirm).not.toBe("");
  return post(server, "/form", { ...honeypot, email });
}

/** The server's access-log line for a request; written when the response finished, after the action's own logs. */
const requestLogged = (method: string, path: string) => (line: LogLine) =>
  line.json?.message === "request" && line.json.method === method && line.json.path === path;

const isLinkFor = (email: string) => (line: LogLine) => line.json?.message === LINK_LOGGED && line.json.to === email;

async function tokenRow(token: string): Promise<{ used_at: Date | null } | undefined> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const hash = createHash("sha256").update(token).digest("base64url");
    const result = await client.query<{ used_at: Date | null }>(
      "select used_at from login_tokens where token_hash = $1",
      [hash],
    );
    return result.rows[0];
  } finally {
    await client.end();
  }
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing: an earlier step of this scenario failed`);
  return value;
}

describe("two server instances sharing one PostgreSQL database", () => {
  let link: string | undefined;
  let token: string | undefined;
  let sessionCookie: string | undefined;

  beforeAll(async () => {
    databaseUrl = await createDatabase(inject("pgUrl"), `two_instances_${process.pid}_${Date.now()}`);
    // One after the other: the first applies the migrations (see the report on concurrent migrations).
    a = await startServer({ env: { DATABASE_URL: databaseUrl } });
    b = await startServer({ env: { DATABASE_URL: databaseUrl } });
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("a sign-in link requested on instance A is written to A's log with A's origin", async () => {
    const serverA = need(a, "instance A");
    const response = await requestSignInLink(serverA, EMAIL);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/form");
    expect(setCookie(response, "toast")).toBeDefined();

    const line = await serverA.waitForLog(isLinkFor(EMAIL), 10_000);
    link = String(line.json?.link);
    const url = new URL(link);
    expect(url.origin).toBe(serverA.baseUrl);
    expect(url.pathname).toBe("/confirm");
    token = url.searchParams.get("token") ?? undefined;
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,100}$/);
  });

  it("opening the link on instance B shows the confirm form and leaves the token unused", async () => {
    const serverB = need(b, "instance B");
    const onB = new URL(need(link, "the sign-in link"));
    onB.protocol = new URL(serverB.baseUrl).protocol;
    onB.host = new URL(serverB.baseUrl).host;
    const response = await get(serverB, onB.pathname + onB.search);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(inputValue(html, "token")).toBe(need(token, "the token"));

    const row = await tokenRow(need(token, "the token"));
    expect(row, "the token is stored").toBeDefined();
    expect(row?.used_at, "GET must not consume the link").toBeNull();
  });

  it("posting the token to B's /confirm signs in: 302 to /account/home with a __session cookie", async () => {
    const serverB = need(b, "instance B");
    const response = await post(serverB, "/confirm", { token: need(token, "the token") });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/account/home");
    sessionCookie = setCookie(response, "__session");
    expect(sessionCookie).toMatch(/^__session=.+/);
    expect((await tokenRow(need(token, "the token")))?.used_at).toBeInstanceOf(Date);
  });

  it("the session started on B is accepted by A, because sessions live in the database", async () => {
    const serverA = need(a, "instance A");
    const response = await get(serverA, "/account/home", need(sessionCookie, "the session cookie"));
    expect(response.headers.get("Location")).toBeNull();
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(EMAIL);

    // The control: without the cookie, the guard sends the visitor to the sign-in form.
    const anonymous = await get(serverA, "/account/home");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/form");
  });

  it("the same link posted again, on A, is refused as used", async () => {
    const serverA = need(a, "instance A");
    const response = await post(serverA, "/confirm", { token: need(token, "the token") });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/error?reason=used");
    expect(setCookie(response, "__session")).toBeUndefined();
  });

  it("the rate limit is shared: a second request for the address on B within 60 s is refused and sends no link", async () => {
    const serverB = need(b, "instance B");
    const response = await requestSignInLink(serverB, EMAIL);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/form");
    const toast = setCookie(response, "toast");
    expect(toast).toBeDefined();

    const page = await get(serverB, "/form", toast);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Too many requests");

    // B logs the request when its response has finished, after anything the action logged.
    await serverB.waitForLog(requestLogged("POST", "/form"), 5_000);
    expect(serverB.logs().filter((line) => line.json?.message === LINK_LOGGED)).toEqual([]);
  });

  it("SIGTERM stops each instance with exit code 0", async () => {
    const [codeA, codeB] = await Promise.all([need(a, "instance A").stop(), need(b, "instance B").stop()]);
    expect({ a: codeA, b: codeB }).toEqual({ a: 0, b: 0 });
    expect(
      need(a, "instance A")
        .logs()
        .some((line) => line.json?.message === "stopped"),
    ).toBe(true);
    expect(
      need(b, "instance B")
        .logs()
        .some((line) => line.json?.message === "stopped"),
    ).toBe(true);
  });
});
