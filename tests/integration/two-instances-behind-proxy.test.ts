/**
 * Two production server instances on one PostgreSQL database behind a reverse proxy, as compose.yaml runs them
 * (TRUST_PROXY=1, the proxy's public address as APP_URL): the proxy sends consecutive requests to alternate instances,
 * so a sign-in asked for on one instance is confirmed on the other, the session works on both and the per-address
 * rate limit counts requests from both.
 *
 * Needs `npm run build` (the test script builds first) and the PostgreSQL server of tests/support/pg-global-setup.ts.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startMailSink, signInLink } from "../support/mail-sink.ts";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { startReverseProxy } from "../support/reverse-proxy.ts";
import { startServer, type ServerProcess } from "../support/server-process.ts";
import { toastsIn, visitor } from "../support/http-visitor.ts";

const EMAIL = "behind.proxy@example.test";

describe("two instances behind a reverse proxy", () => {
  let proxy: Awaited<ReturnType<typeof startReverseProxy>>;
  let mail: Awaited<ReturnType<typeof startMailSink>>;
  const instances: ServerProcess[] = [];

  beforeAll(async () => {
    proxy = await startReverseProxy();
    mail = await startMailSink();
    const databaseUrl = await createDatabase(inject("pgUrl"), `behind_proxy_${process.pid}_${Date.now()}`);
    const env = { DATABASE_URL: databaseUrl, SMTP_URL: mail.url, APP_URL: proxy.url, TRUST_PROXY: "1" };
    // One after the other: the first applies the migrations.
    instances.push(await startServer({ env }));
    instances.push(await startServer({ env }));
    proxy.upstreams.push(...instances.map((instance) => instance.baseUrl));
  });

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await proxy?.close();
    await mail?.close();
  });

  it("completes on one instance a sign-in started on the other, and the session works on both", async () => {
    const learner = visitor(proxy.url);
    const asked = Date.now();
    expect((await learner.requestSignIn(EMAIL)).headers.get("Location")).toBe("/form");
    const link = signInLink(await mail.waitFor(EMAIL, asked));
    expect(new URL(link).origin).toBe(proxy.url);
    const confirmed = await learner.confirm(link);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/account/home");

    const asking = proxy.served.find((entry) => entry.method === "POST" && entry.path === "/form");
    const confirming = proxy.served.find((entry) => entry.method === "POST" && entry.path === "/confirm");
    expect(asking?.upstream).toBeDefined();
    expect(confirming?.upstream).toBeDefined();
    expect(confirming?.upstream).not.toBe(asking?.upstream);

    const homes = [await learner.page("/account/home"), await learner.page("/account/home")];
    expect(homes.map((home) => home.response.status)).toEqual([200, 200]);
    expect(homes.every((home) => home.html.includes(EMAIL))).toBe(true);
    const lastTwo = proxy.served.slice(-2).map((entry) => entry.upstream);
    expect(new Set(lastTwo).size).toBe(2);
  });

  it("shares the rate limit: asking again for the address on the other instance is refused", async () => {
    const learner = visitor(proxy.url);
    const before = mail.received.length;
    await learner.requestSignIn(EMAIL);
    expect(toastsIn((await learner.page("/form")).html)).toEqual([["Too many requests", expect.any(String)]]);
    const attempts = proxy.served.filter((entry) => entry.method === "POST" && entry.path === "/form");
    expect(new Set(attempts.map((entry) => entry.upstream)).size).toBe(2);
    expect(mail.received.length).toBe(before);
  });
});
