/**
 * Deleting an account also deletes the learner's person and events at the analytics provider (PostHog) when
 * POSTHOG_PERSONAL_API_KEY and POSTHOG_PROJECT_ID are set. PostHog is stood in for by a protocol-level fake: a real
 * HTTP server here that answers its bulk-delete endpoint of persons as PostHog documents it
 * (`POST /api/projects/:project_id/persons/bulk_delete/` with a personal API key as Bearer token), and records what
 * it received. A provider that does not answer never holds the deletion up: the call runs off the request path, each
 * attempt with a deadline, and its failure is logged for the operator.
 *
 * Needs `npm run build` (the production build runs in this process).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInBrowser, startApp } from "../support/app";
import { startMailSink } from "../support/mail-sink";
import { takeLogLines } from "../support/test-logs";

type Received = { method: string; path: string; authorization: string; body: unknown };
const PERSONAL_API_KEY = "phx_fake_personal_api_key_for_tests_0123456789";

/** A stand-in for PostHog's private API: answers with `mode`, or holds the request unanswered. */
async function startFakePostHog() {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  let mode: "ok" | "hold" | "fail" = "ok";
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    let text = "";
    for await (const chunk of request) text += chunk;
    received.push({
      method: request.method ?? "",
      path: request.url ?? "",
      authorization: request.headers.authorization ?? "",
      body: text ? JSON.parse(text) : null,
    });
    if (!/^\/api\/projects\/\d+\/persons\/bulk_delete\/$/.test(request.url ?? "") || request.method !== "POST") {
      response.writeHead(404, { "Content-Type": "application/json" }).end('{"detail":"Not found."}');
    } else if (request.headers.authorization !== `Bearer ${PERSONAL_API_KEY}`) {
      response.writeHead(401, { "Content-Type": "application/json" }).end('{"detail":"Invalid personal API key."}');
    } else if (mode === "hold") {
      held.push(response);
    } else if (mode === "fail") {
      response.writeHead(503, { "Content-Type": "application/json" }).end('{"detail":"unavailable"}');
    } else {
      const found = (request.headers["content-type"] ?? "").startsWith("application/json") ? 1 : 0;
      response.writeHead(200, { "Content-Type": "application/json" }).end(
        JSON.stringify({
          persons_found: found,
          persons_deleted: found,
          events_queued_for_deletion: true,
          recordings_queued_for_deletion: false,
        }),
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    setMode: (next: typeof mode) => void (mode = next),
    /** Answers every held request with 503. */
    release: () => held.splice(0).forEach((response) => response.writeHead(503).end()),
    close: () => {
      held.splice(0).forEach((response) => response.destroy());
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("deleting an account deletes the learner's analytics person and events", () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  let mail: Awaited<ReturnType<typeof startMailSink>>;
  let posthog: Awaited<ReturnType<typeof startFakePostHog>>;
  const logs: string[] = [];

  beforeAll(async () => {
    posthog = await startFakePostHog();
    mail = await startMailSink();
    app = await startApp({
      SMTP_URL: mail.url,
      POSTHOG_PERSONAL_API_KEY: PERSONAL_API_KEY,
      POSTHOG_PROJECT_ID: "4242",
      POSTHOG_API_HOST: posthog.url,
    });
  });
  afterAll(async () => {
    await app?.stop();
    await mail?.close();
    await posthog?.close();
  });

  /** A signed-in learner about to delete the account, and the id analytics knows them by. */
  async function learner(name: string) {
    const email = `${name}-${Date.now()}@example.com`;
    const browser = await signedInBrowser(app, mail, email);
    const { rows } = await app.db.execute(sql`select id from users where email = ${email}`);
    return { browser, email, id: String(rows[0]!.id) };
  }
  const deleteAccount = (browser: Awaited<ReturnType<typeof learner>>["browser"]) =>
    browser.request("/account/profile/delete", { method: "POST", form: { confirmation: "delete" } });
  const userCount = async (email: string) =>
    Number((await app.db.execute(sql`select count(*)::int as n from users where email = ${email}`)).rows[0]!.n);
  const logLine = (message: string) =>
    waitFor(`the log line "${message}"`, () => {
      logs.push(...takeLogLines());
      return logs.find((line) => line.includes(`"message":"${message}"`));
    });

  it("asks PostHog to delete the person by the learner's id, with their events, using the personal API key", async () => {
    posthog.setMode("ok");
    const { browser, email, id } = await learner("analytics-deleted");
    const response = await deleteAccount(browser);
    expect(response.status).toBe(302);
    expect(await userCount(email)).toBe(0);
    const call = await waitFor("the call to PostHog", () =>
      posthog.received.find((r) => JSON.stringify(r.body).includes(id)),
    );
    expect(call).toEqual({
      method: "POST",
      path: "/api/projects/4242/persons/bulk_delete/",
      authorization: `Bearer ${PERSONAL_API_KEY}`,
      body: { distinct_ids: [id], delete_events: true },
    });
    expect(await logLine("analytics person deleted")).not.toContain(email);
  });

  it("deletes the account at once while PostHog does not answer, and logs that the person was not deleted", async () => {
    posthog.setMode("hold");
    const { browser, email, id } = await learner("analytics-slow");
    const started = Date.now();
    const response = await deleteAccount(browser);
    expect(response.status).toBe(302);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await userCount(email)).toBe(0);
    await waitFor("the held call", () => posthog.received.find((r) => JSON.stringify(r.body).includes(id)));
    // PostHog stays down: the held attempt and the retries fail, and the operator learns whom to delete by hand.
    posthog.setMode("fail");
    posthog.release();
    const line = await logLine("analytics person not deleted");
    expect(line).toContain(id);
    expect(line).toContain("PostHog answered 503");
    expect(line).not.toContain(email);
    expect(posthog.received.filter((r) => JSON.stringify(r.body).includes(id))).toHaveLength(3);
  }, 30_000);
});
