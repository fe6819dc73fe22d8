/**
 * Staleness declared once per route (app/edge/staleness.ts): each public page kept in memory is drawn again when,
 * and only when, data its routes declare changes, as announced by the capability that wrote it. The production build's
 * page cache in front of React Router (as the edge mounts it), on PGlite; a page's drawings are counted from the cache's
 * own log line ("page cached", at debug level). Needs `npm run build`.
 */
import path from "node:path";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequestHandler } from "@react-router/express";
import { sql } from "drizzle-orm";
import express from "express";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../../app/app-server.server";
import type { Staleness } from "../../app/edge/staleness";
import type { DataSet } from "../../app/server/data-changes.server";
import { BROWSER_UA, signedInBrowser, startApp } from "../support/app";
import { startMailSink } from "../support/mail-sink";
import { takeLogLines } from "../support/test-logs";

const EMAIL = "stale.pages@example.com";
/** Public pages kept in memory (app/http/public-pages.ts), each with a query it accepts where it takes one. */
const PAGES = [
  "/",
  "/form",
  "/explore?language=de&level=beginner",
  "/texts",
  "/subscription",
  "/company/privacy",
  "/company/terms-of-use",
  "/crowdfunding-campaign",
  "/de/crowdfunding-campaign",
  "/de/explore",
];

let app: Awaited<ReturnType<typeof startApp>>;
let mail: Awaited<ReturnType<typeof startMailSink>>;
let build: ServerBuild;
let server: Server | undefined;
let base: string;

function get(pathAndQuery: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(base + pathAndQuery, {
    headers: { "User-Agent": BROWSER_UA, "Accept-Encoding": "identity", ...headers },
    redirect: "manual",
  });
}

/** The URLs the page cache drew (and kept) since the last call. */
function drawn(): string[] {
  return takeLogLines()
    .map((line) => JSON.parse(line) as { message?: string; path?: string })
    .filter((line) => line.message === "page cached")
    .map((line) => line.path!);
}

/** The sets a URL's page depends on, from the `handle.staleness` of every route it matches in the build. */
function declaredSets(url: string): Set<DataSet> {
  const children = (parentId: string | undefined): RouteObject[] =>
    Object.values(build.routes)
      .filter((route) => route?.parentId === parentId)
      .map((route) => ({
        id: route!.id,
        path: route!.path,
        index: route!.index,
        caseSensitive: route!.caseSensitive,
        children: route!.index ? undefined : children(route!.id),
      })) as RouteObject[];
  const matches = matchRoutes(children(undefined), new URL(url, "http://x").pathname) ?? [];
  expect(matches.length).toBeGreaterThan(0);
  const sets = new Set<DataSet>();
  for (const match of matches) {
    const staleness = (build.routes[match.route.id!]!.module.handle as { staleness?: Staleness } | undefined)
      ?.staleness;
    expect(staleness, `${match.route.id} declares its staleness`).toBeDefined();
    for (const set of staleness!.dependsOn) sets.add(set);
  }
  return sets;
}

/** Every page drawn once and answered from memory afterwards: the cache holds them all. */
async function keepAll() {
  for (const page of PAGES) {
    const first = await get(page);
    expect(first.status, page).toBe(200);
    await first.body?.cancel();
  }
  for (const page of PAGES) {
    const again = await get(page);
    expect(again.headers.get("ETag"), page).not.toBeNull();
    await again.body?.cancel();
  }
  drawn();
}

/** After a change of `set`: the pages drawn again on the next visit are exactly those declaring `set`. */
async function expectRedrawnExactly(set: DataSet) {
  for (const page of PAGES) (await get(page)).body?.cancel();
  const redrawn = new Set(drawn());
  const declaring = PAGES.filter((page) => declaredSets(page).has(set));
  expect(declaring.length).toBeGreaterThan(0);
  expect(declaring.length).toBeLessThan(PAGES.length);
  expect([...redrawn].sort()).toEqual([...declaring].sort());
}

beforeAll(async () => {
  mail = await startMailSink();
  app = await startApp({ SMTP_URL: mail.url, LOG_LEVEL: "debug" });
  build = (await import(path.resolve(import.meta.dirname, "../../build/server/index.js"))) as ServerBuild;
  const entry = (build.entry.module as unknown as { appServer: AppServer }).appServer;
  const web = express();
  web.use(entry.publicPageCache(build));
  web.all("/{*splat}", createRequestHandler({ build, getLoadContext: () => entry.createLoadContext("203.0.113.9") }));
  server = web.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await app?.stop();
  await mail?.close();
});

describe("pages kept in memory go stale by what their routes declare", () => {
  it("every route of a kept public page declares what it shows", () => {
    for (const page of PAGES) declaredSets(page);
    expect(declaredSets("/crowdfunding-campaign").has("pledges")).toBe(true);
    expect(declaredSets("/explore").has("public-terms")).toBe(true);
    expect(declaredSets("/company/privacy").has("pledges")).toBe(false);
  });

  it("a learner's account deletion (an action forgetting their pledges) redraws exactly the pages showing pledges", async () => {
    const learner = await signedInBrowser(app, mail, EMAIL);
    await app.db.execute(sql`insert into pledges (checkout_session_id, email, amount, currency)
      values ('cs_stale_1', ${EMAIL}, 2500, 'eur')`);
    await keepAll();
    const deleted = await learner.request("/account/profile/delete", {
      method: "POST",
      form: { confirmation: "DELETE" },
    });
    expect(deleted.status).toBe(302);
    await expectRedrawnExactly("pledges");
    // And nothing is drawn again on the visits after.
    for (const page of PAGES) (await get(page)).body?.cancel();
    expect(drawn()).toEqual([]);
  });
});
